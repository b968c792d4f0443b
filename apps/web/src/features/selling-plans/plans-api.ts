import type {
  FreeShippingExist,
  FreeShippingUpdate,
  GroupProductsChange,
  SellingPlanGroupDetail,
  SellingPlanGroupInput,
  SellingPlanGroupSummary,
} from '@teiki/contract'
import { api } from '../../app/api.ts'

/** The selling plan endpoints the screens use (an interface so the flows are tested without a server). */
export type PlansApi = {
  detail: (id: string) => Promise<SellingPlanGroupDetail>
  create: (body: SellingPlanGroupInput) => Promise<SellingPlanGroupSummary>
  update: (id: string, body: SellingPlanGroupInput) => Promise<SellingPlanGroupSummary>
  remove: (id: string) => Promise<void>
  changeProducts: (id: string, change: GroupProductsChange) => Promise<SellingPlanGroupSummary>
  freeShipping: (id: string) => Promise<FreeShippingExist>
  setFreeShipping: (id: string, free: boolean) => Promise<FreeShippingUpdate>
}

export const httpPlansApi: PlansApi = {
  detail: (id) => api('GET /selling-plan-groups/:id', { params: { id } }),
  create: (body) => api('POST /selling-plan-groups', { body }),
  update: (id, body) => api('PUT /selling-plan-groups/:id', { params: { id }, body }),
  remove: async (id) => {
    await api('DELETE /selling-plan-groups/:id', { params: { id } })
  },
  changeProducts: (id, change) =>
    api('POST /selling-plan-groups/:id/products', { params: { id }, body: change }),
  freeShipping: (id) => api('GET /free-shipping-profile/exist', { query: { sellingPlanGroupId: id } }),
  setFreeShipping: (id, free) =>
    api('GET /free-shipping-profile/update', {
      query: { sellingPlanGroupId: id, free: free ? 'true' : 'false' },
    }),
}
