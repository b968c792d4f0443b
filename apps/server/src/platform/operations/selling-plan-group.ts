import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

/** One selling plan group, for its create/update webhooks; same fields as the sync page's nodes. */
export const SELLING_PLAN_GROUP = withFragments(/* GraphQL */ `
  query SellingPlanGroup($id: ID!) {
    sellingPlanGroup(id: $id) { ...SellingPlanGroupFields }
  }
`)

/** The group, or null when the platform no longer has it. */
export function fetchSellingPlanGroup(client: AdminClient, id: string) {
  return queryPath<PlatformSellingPlanGroup>(client, SELLING_PLAN_GROUP, { id }, ['sellingPlanGroup'])
}
