import type { AdminClient } from '../admin-client.ts'

/** A group's variants (those of its products and those added one by one), a page at a time. */
export const SELLING_PLAN_GROUP_VARIANTS = /* GraphQL */ `
  query SellingPlanGroupVariants($id: ID!, $first: Int!, $after: String) {
    sellingPlanGroup(id: $id) {
      productVariants(first: $first, after: $after) {
        nodes { id title product { id title } }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`

export type GroupVariantsPage = {
  nodes: Array<{ id: string; title: string; product: { id: string; title: string } }>
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

/** One page of the group's variants, or null when the platform does not have the group. */
export async function fetchSellingPlanGroupVariants(
  client: AdminClient,
  variables: { id: string; first: number; after?: string | null },
): Promise<GroupVariantsPage | null> {
  const data = await client.request<{ sellingPlanGroup: { productVariants: GroupVariantsPage } | null }>(
    'SellingPlanGroupVariants',
    SELLING_PLAN_GROUP_VARIANTS,
    variables,
  )
  return data.sellingPlanGroup?.productVariants ?? null
}
