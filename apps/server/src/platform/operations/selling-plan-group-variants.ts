import type { AdminClient } from '../admin-client.ts'
import { type Connection, type PageOf, queryPath } from './requests.ts'

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

export type GroupVariantsPage = Connection<{
  id: string
  title: string
  product: { id: string; title: string }
}>

/** One page of the group's variants, or null when the platform does not have the group. */
export function fetchSellingPlanGroupVariants(client: AdminClient, page: PageOf) {
  const path = ['sellingPlanGroup', 'productVariants']
  return queryPath<GroupVariantsPage>(client, SELLING_PLAN_GROUP_VARIANTS, page, path)
}
