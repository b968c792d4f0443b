import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const SELLING_PLAN_GROUP_ADD_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProducts(id: $id, productIds: $ids) {
      sellingPlanGroup { id }
      userErrors { code field message }
    }
  }
`

/** sellingPlanGroupAddProducts for up to 250 ids (the platform's input cap); PlatformUserError when refused. */
export async function addProducts(client: AdminClient, groupId: string, ids: string[]): Promise<void> {
  const data = await client.request<{
    sellingPlanGroupAddProducts: {
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('SellingPlanGroupAddProducts', SELLING_PLAN_GROUP_ADD_PRODUCTS, { id: groupId, ids })
  assertNoUserErrors('sellingPlanGroupAddProducts', data.sellingPlanGroupAddProducts)
}
