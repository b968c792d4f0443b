import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

/** One selling plan group, for its create/update webhooks; same fields as the sync page's nodes. */
export const SELLING_PLAN_GROUP = withFragments(/* GraphQL */ `
  query SellingPlanGroup($id: ID!) {
    sellingPlanGroup(id: $id) { ...SellingPlanGroupFields }
  }
`)

/** The group, or null when the platform no longer has it. */
export async function fetchSellingPlanGroup(
  client: AdminClient,
  id: string,
): Promise<PlatformSellingPlanGroup | null> {
  const data = await client.request<{ sellingPlanGroup: PlatformSellingPlanGroup | null }>(
    'SellingPlanGroup',
    SELLING_PLAN_GROUP,
    { id },
  )
  return data.sellingPlanGroup
}
