import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const SELLING_PLAN_GROUP_ADD_PRODUCT_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProductVariants(id: $id, productVariantIds: $ids) {
      sellingPlanGroup { id }
      userErrors { code field message }
    }
  }
`

/** sellingPlanGroupAddProductVariants for up to 250 ids (the platform's input cap); PlatformUserError when refused. */
export async function addProductVariants(client: AdminClient, groupId: string, ids: string[]): Promise<void> {
  const data = await client.request<{
    sellingPlanGroupAddProductVariants: {
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('SellingPlanGroupAddProductVariants', SELLING_PLAN_GROUP_ADD_PRODUCT_VARIANTS, { id: groupId, ids })
  assertNoUserErrors('sellingPlanGroupAddProductVariants', data.sellingPlanGroupAddProductVariants)
}
