import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const SELLING_PLAN_GROUP_DELETE = /* GraphQL */ `
  mutation SellingPlanGroupDelete($id: ID!) {
    sellingPlanGroupDelete(id: $id) {
      deletedSellingPlanGroupId
      userErrors { code field message }
    }
  }
`

/** Deletes a group and its plans; PlatformUserError when the platform refuses (an unknown group). */
export async function deleteSellingPlanGroup(client: AdminClient, id: string): Promise<void> {
  const data = await client.request<{
    sellingPlanGroupDelete: {
      deletedSellingPlanGroupId: string | null
      userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
    } | null
  }>('SellingPlanGroupDelete', SELLING_PLAN_GROUP_DELETE, { id })
  assertNoUserErrors('sellingPlanGroupDelete', data.sellingPlanGroupDelete)
}
