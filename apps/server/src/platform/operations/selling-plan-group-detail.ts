import type { AdminClient } from '../admin-client.ts'
import {
  type PlatformSellingPlan,
  PRICING_VALUE_FRAGMENT,
  SELLING_PLANS_SELECTION,
} from './selling-plan-groups-page.ts'

/**
 * One group as the editor shows it, read live: its fields the mirror does not keep
 * (description, options), its plans with every policy, and its first 30 products (spec §9).
 */
export const SELLING_PLAN_GROUP_DETAIL = /* GraphQL */ `
  query SellingPlanGroupDetail($id: ID!) {
    sellingPlanGroup(id: $id) {
      id
      name
      merchantCode
      description
      options
      productsCount { count }
      productVariantsCount { count }
      products(first: 30) { nodes { id title featuredImage { url } } }
      ${SELLING_PLANS_SELECTION}
    }
  }

  ${PRICING_VALUE_FRAGMENT}
`

export type PlatformGroupDetail = {
  id: string
  name: string
  merchantCode: string | null
  description: string | null
  options: string[]
  productsCount: { count: number } | null
  productVariantsCount: { count: number } | null
  products: { nodes: Array<{ id: string; title: string; featuredImage: { url: string } | null }> }
  sellingPlans: { nodes: PlatformSellingPlan[] }
}

/** The group, or null when the platform does not have it (for this shop). */
export async function fetchSellingPlanGroupDetail(
  client: AdminClient,
  id: string,
): Promise<PlatformGroupDetail | null> {
  const data = await client.request<{ sellingPlanGroup: PlatformGroupDetail | null }>(
    'SellingPlanGroupDetail',
    SELLING_PLAN_GROUP_DETAIL,
    { id },
  )
  return data.sellingPlanGroup
}
