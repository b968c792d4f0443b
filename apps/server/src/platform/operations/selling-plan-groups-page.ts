import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { type Connection, queryRoot } from './requests.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

export const SELLING_PLAN_GROUPS_PAGE = withFragments(/* GraphQL */ `
  query SellingPlanGroupsPage($first: Int!, $after: String) {
    sellingPlanGroups(first: $first, after: $after) {
      nodes { ...SellingPlanGroupFields }
      pageInfo { hasNextPage endCursor }
    }
  }
`)

export function fetchSellingPlanGroupsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null },
) {
  const document = SELLING_PLAN_GROUPS_PAGE
  return queryRoot<Connection<PlatformSellingPlanGroup>>(client, document, variables, 'sellingPlanGroups')
}
