import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { mutateReturning } from './requests.ts'
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

/** The group after the update; PlatformUserError when the platform refuses it. */
export function updateSellingPlanGroup(client: AdminClient, id: string, input: Record<string, unknown>) {
  const document = SELLING_PLAN_GROUP_UPDATE
  return mutateReturning<PlatformSellingPlanGroup>(client, document, { id, input }, 'sellingPlanGroup')
}
