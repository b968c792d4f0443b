import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const SELLING_PLAN_GROUP_REMOVE_PRODUCT_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProductVariants(id: $id, productVariantIds: $ids) {
      removedProductVariantIds
      userErrors { code field message }
    }
  }
`

/** sellingPlanGroupRemoveProductVariants for up to 250 ids (the platform's input cap); PlatformUserError when refused. */
export async function removeProductVariants(
  client: AdminClient,
  groupId: string,
  ids: string[],
): Promise<void> {
  const data = await client.request<{
    sellingPlanGroupRemoveProductVariants: {
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('SellingPlanGroupRemoveProductVariants', SELLING_PLAN_GROUP_REMOVE_PRODUCT_VARIANTS, {
    id: groupId,
    ids,
  })
  assertNoUserErrors('sellingPlanGroupRemoveProductVariants', data.sellingPlanGroupRemoveProductVariants)
}
