import type { AdminClient } from '../admin-client.ts'
import {
  type PlatformSellingPlanGroup,
  PRICING_VALUE_FRAGMENT,
  SELLING_PLAN_GROUP_SELECTION,
} from './selling-plan-groups-page.ts'

/** One selling plan group, for its create/update webhooks; same fields as the sync page's nodes. */
export const SELLING_PLAN_GROUP = /* GraphQL */ `
  query SellingPlanGroup($id: ID!) {
    sellingPlanGroup(id: $id) ${SELLING_PLAN_GROUP_SELECTION}
  }

  ${PRICING_VALUE_FRAGMENT}
`

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
