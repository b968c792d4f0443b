import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

/** Updates a group and creates, updates and deletes its plans in one call. */
export const SELLING_PLAN_GROUP_UPDATE = withFragments(/* GraphQL */ `
  mutation SellingPlanGroupUpdate($id: ID!, $input: SellingPlanGroupInput!) {
    sellingPlanGroupUpdate(id: $id, input: $input) {
      sellingPlanGroup { ...SellingPlanGroupFields }
      deletedSellingPlanIds
      userErrors { code field message }
    }
  }
`)

type UserErrors = Array<{ code: string | null; field: string[] | null; message: string }>

/** The group after the update; PlatformUserError when the platform refuses it. */
export async function updateSellingPlanGroup(
  client: AdminClient,
  id: string,
  input: Record<string, unknown>,
): Promise<PlatformSellingPlanGroup> {
  const data = await client.request<{
    sellingPlanGroupUpdate: {
      sellingPlanGroup: PlatformSellingPlanGroup | null
      userErrors: UserErrors
    } | null
  }>('SellingPlanGroupUpdate', SELLING_PLAN_GROUP_UPDATE, { id, input })
  const payload = assertNoUserErrors('sellingPlanGroupUpdate', data.sellingPlanGroupUpdate)
  if (!payload.sellingPlanGroup) throw new Error('sellingPlanGroupUpdate answered no group')
  return payload.sellingPlanGroup
}
