import type { Box, BoxDetail, SellingPlanGroupList, UpdateBoxRequest } from '@teiki/contract'
import { api } from '../../app/api.ts'

/** The box endpoints the screens use (an interface so the flows are tested without a server). */
export type BoxesApi = {
  create: () => Promise<Box>
  detail: (id: string) => Promise<BoxDetail>
  update: (id: string, body: UpdateBoxRequest) => Promise<Box>
  remove: (id: string) => Promise<void>
  /** Selling plan groups to choose from, by name. */
  groups: (query: string) => Promise<SellingPlanGroupList>
}

export const httpBoxesApi: BoxesApi = {
  create: () => api('POST /boxes', { body: {} }),
  detail: (id) => api('GET /boxes/:id', { params: { id } }),
  update: (id, body) => api('PUT /boxes/:id', { params: { id }, body }),
  remove: async (id) => {
    await api('DELETE /boxes/:id', { params: { id } })
  },
  groups: (query) => api('GET /subscriptions/sellingPlanGroups', { query: { query, page: 1 } }),
}
