import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-fragments.ts'

/**
 * One group as the editor shows it, read live: the mirror's fields of it (its plans with every
 * policy among them), the ones the mirror does not keep (description, options), and its first
 * 30 products (spec §9).
 */
export const SELLING_PLAN_GROUP_DETAIL = withFragments(/* GraphQL */ `
  query SellingPlanGroupDetail($id: ID!) {
    sellingPlanGroup(id: $id) {
      ...SellingPlanGroupFields
      description
      options
      products(first: 30) { nodes { id title featuredImage { url } } }
    }
  }
`)

export type PlatformGroupDetail = PlatformSellingPlanGroup & {
  description: string | null
  options: string[]
  products: { nodes: Array<{ id: string; title: string; featuredImage: { url: string } | null }> }
}

/** The group, or null when the platform does not have it (for this shop). */
export function fetchSellingPlanGroupDetail(client: AdminClient, id: string) {
  return queryPath<PlatformGroupDetail>(client, SELLING_PLAN_GROUP_DETAIL, { id }, ['sellingPlanGroup'])
}
