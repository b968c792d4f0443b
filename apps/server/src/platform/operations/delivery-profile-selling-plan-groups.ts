import type { AdminClient } from '../admin-client.ts'

/** The selling plan groups a delivery profile holds, 100 a page. */
export const DELIVERY_PROFILE_SELLING_PLAN_GROUPS = /* GraphQL */ `
  query DeliveryProfileSellingPlanGroups($id: ID!, $first: Int!, $after: String) {
    deliveryProfile(id: $id) {
      sellingPlanGroups(first: $first, after: $after) {
        nodes { id }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`

/** True when the profile holds the group (its pages are read until it is found). */
export async function profileHoldsGroup(
  client: AdminClient,
  profileId: string,
  groupGid: string,
): Promise<boolean> {
  let after: string | null = null
  for (;;) {
    const data: {
      deliveryProfile: {
        sellingPlanGroups: {
          nodes: Array<{ id: string }>
          pageInfo: { hasNextPage: boolean; endCursor: string | null }
        }
      } | null
    } = await client.request('DeliveryProfileSellingPlanGroups', DELIVERY_PROFILE_SELLING_PLAN_GROUPS, {
      id: profileId,
      first: 100,
      after,
    })
    const page = data.deliveryProfile?.sellingPlanGroups
    if (!page) return false
    if (page.nodes.some((g) => g.id === groupGid)) return true
    if (!page.pageInfo.hasNextPage) return false
    after = page.pageInfo.endCursor
  }
}
