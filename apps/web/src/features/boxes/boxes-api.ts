import type { Box, BoxDetail, BoxList, SellingPlanGroupList, UpdateBoxRequest } from '@teiki/contract'
import { apiDelete, apiGet, apiPost, apiPut } from '../../app/api.ts'

/** The box endpoints the screens use (an interface so the flows are tested without a server). */
export type BoxesApi = {
  list: (page: number) => Promise<BoxList>
  create: () => Promise<Box>
  detail: (id: string) => Promise<BoxDetail>
  update: (id: string, body: UpdateBoxRequest) => Promise<Box>
  remove: (id: string) => Promise<void>
  /** Selling plan groups to choose from, by name. */
  groups: (query: string) => Promise<SellingPlanGroupList>
}

export const httpBoxesApi: BoxesApi = {
  list: (page) => apiGet<BoxList>('/boxes', { page }),
  create: () => apiPost<Box>('/boxes', {}),
  detail: (id) => apiGet<BoxDetail>(`/boxes/${encodeURIComponent(id)}`),
  update: (id, body) => apiPut<Box>(`/boxes/${encodeURIComponent(id)}`, body),
  remove: async (id) => {
    await apiDelete(`/boxes/${encodeURIComponent(id)}`)
  },
  groups: (query) => apiGet<SellingPlanGroupList>('/subscriptions/sellingPlanGroups', { query, page: 1 }),
}
