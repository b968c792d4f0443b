import type { AdminClient } from '../admin-client.ts'

/**
 * A product the merchant sells on a plan, with its online store URL: where "ストアで確認" opens
 * the product page with Teiki's block (the first group's first product; null when unpublished).
 */
export const STOREFRONT_PRODUCT = /* GraphQL */ `
  query StorefrontProduct {
    sellingPlanGroups(first: 1) {
      nodes { products(first: 1) { nodes { id title onlineStoreUrl } } }
    }
  }
`

type Answer = {
  sellingPlanGroups: {
    nodes: Array<{ products: { nodes: Array<{ id: string; title: string; onlineStoreUrl: string | null }> } }>
  }
}

export async function fetchStorefrontProduct(
  client: AdminClient,
): Promise<{ id: string; title: string; onlineStoreUrl: string | null } | null> {
  const data = await client.request<Answer>('StorefrontProduct', STOREFRONT_PRODUCT)
  return data.sellingPlanGroups.nodes[0]?.products.nodes[0] ?? null
}
