import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const SELLING_PLAN_GROUP_REMOVE_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProducts(id: $id, productIds: $ids) {
      removedProductIds
      userErrors { code field message }
    }
  }
`

/** sellingPlanGroupRemoveProducts for up to 250 ids (the platform's input cap); PlatformUserError when refused. */
export async function removeProducts(client: AdminClient, groupId: string, ids: string[]): Promise<void> {
  const data = await client.request<{
    sellingPlanGroupRemoveProducts: {
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('SellingPlanGroupRemoveProducts', SELLING_PLAN_GROUP_REMOVE_PRODUCTS, { id: groupId, ids })
  assertNoUserErrors('sellingPlanGroupRemoveProducts', data.sellingPlanGroupRemoveProducts)
}
