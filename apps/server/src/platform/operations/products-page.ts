import type { AdminClient } from '../admin-client.ts'

export const PRODUCTS_PAGE = /* GraphQL */ `
  query ProductsPage($first: Int!, $after: String) {
    products(first: $first, after: $after) {
      nodes {
        id
        title
        handle
        status
        updatedAt
        featuredImage { url }
        variants(first: 50) { nodes { id title sku price } }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`

export type PlatformProduct = {
  id: string
  title: string
  handle: string
  status: string
  updatedAt: string
  featuredImage: { url: string } | null
  variants: { nodes: Array<{ id: string; title: string; sku: string | null; price: string }> }
}

type ProductsPage = {
  products: { nodes: PlatformProduct[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
}

export async function fetchProductsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null },
): Promise<ProductsPage['products']> {
  return (await client.request<ProductsPage>('ProductsPage', PRODUCTS_PAGE, variables)).products
}
