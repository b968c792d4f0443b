import type { AdminClient } from '../admin-client.ts'

/** A group's first 30 products (spec §9), for a box's detail. */
export const SELLING_PLAN_GROUP_PRODUCTS = /* GraphQL */ `
  query SellingPlanGroupProducts($id: ID!) {
    sellingPlanGroup(id: $id) {
      products(first: 30) { nodes { id title handle featuredImage { url } } }
    }
  }
`

export type PlatformGroupProduct = {
  id: string
  title: string
  handle: string
  featuredImage: { url: string } | null
}

/** The group's first 30 products, or null when the platform does not have the group. */
export async function fetchSellingPlanGroupProducts(
  client: AdminClient,
  id: string,
): Promise<PlatformGroupProduct[] | null> {
  const data = await client.request<{
    sellingPlanGroup: { products: { nodes: PlatformGroupProduct[] } } | null
  }>('SellingPlanGroupProducts', SELLING_PLAN_GROUP_PRODUCTS, { id })
  return data.sellingPlanGroup?.products.nodes ?? null
}
