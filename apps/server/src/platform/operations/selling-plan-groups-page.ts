import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

export const SELLING_PLAN_GROUPS_PAGE = withFragments(/* GraphQL */ `
  query SellingPlanGroupsPage($first: Int!, $after: String) {
    sellingPlanGroups(first: $first, after: $after) {
      nodes { ...SellingPlanGroupFields }
      pageInfo { hasNextPage endCursor }
    }
  }
`)

type Page = {
  sellingPlanGroups: {
    nodes: PlatformSellingPlanGroup[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}

export async function fetchSellingPlanGroupsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null },
): Promise<Page['sellingPlanGroups']> {
  return (await client.request<Page>('SellingPlanGroupsPage', SELLING_PLAN_GROUPS_PAGE, variables))
    .sellingPlanGroups
}
