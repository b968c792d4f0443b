import type {
  FreeShippingExist,
  FreeShippingUpdate,
  GroupProductsChange,
  SellingPlanGroupDetail,
  SellingPlanGroupInput,
  SellingPlanGroupList,
  SellingPlanGroupSummary,
} from '@teiki/contract'
import { apiDelete, apiGet, apiPost, apiPut } from '../../app/api.ts'

/** The selling plan endpoints the screens use (an interface so the flows are tested without a server). */
export type PlansApi = {
  list: (
    query: { query: string; page: number },
    init?: { signal?: AbortSignal },
  ) => Promise<SellingPlanGroupList>
  detail: (id: string) => Promise<SellingPlanGroupDetail>
  create: (body: SellingPlanGroupInput) => Promise<SellingPlanGroupSummary>
  update: (id: string, body: SellingPlanGroupInput) => Promise<SellingPlanGroupSummary>
  remove: (id: string) => Promise<void>
  changeProducts: (id: string, change: GroupProductsChange) => Promise<SellingPlanGroupSummary>
  freeShipping: (id: string) => Promise<FreeShippingExist>
  setFreeShipping: (id: string, free: boolean) => Promise<FreeShippingUpdate>
}

export const httpPlansApi: PlansApi = {
  list: ({ query, page }, init = {}) =>
    apiGet<SellingPlanGroupList>('/subscriptions/sellingPlanGroups', { query, page }, init),
  detail: (id) => apiGet<SellingPlanGroupDetail>(`/selling-plan-groups/${encodeURIComponent(id)}`),
  create: (body) => apiPost<SellingPlanGroupSummary>('/selling-plan-groups', body),
  update: (id, body) =>
    apiPut<SellingPlanGroupSummary>(`/selling-plan-groups/${encodeURIComponent(id)}`, body),
  remove: async (id) => {
    await apiDelete(`/selling-plan-groups/${encodeURIComponent(id)}`)
  },
  changeProducts: (id, change) =>
    apiPost<SellingPlanGroupSummary>(`/selling-plan-groups/${encodeURIComponent(id)}/products`, change),
  freeShipping: (id) => apiGet<FreeShippingExist>('/free-shipping-profile/exist', { sellingPlanGroupId: id }),
  setFreeShipping: (id, free) =>
    apiGet<FreeShippingUpdate>('/free-shipping-profile/update', {
      sellingPlanGroupId: id,
      free: String(free),
    }),
}
