import type { AdminClient } from '../admin-client.ts'
import { queryRoot } from './requests.ts'

/** The app's deployed Shopify Functions of one Function API (`cart_checkout_validation`, …). */
export const SHOPIFY_FUNCTIONS = /* GraphQL */ `
  query ShopifyFunctions($apiType: String!) {
    shopifyFunctions(first: 25, apiType: $apiType) {
      nodes {
        id
        title
      }
    }
  }
`

export type ShopifyFunction = { id: string; title: string }

export async function fetchShopifyFunctions(
  client: AdminClient,
  apiType: string,
): Promise<ShopifyFunction[]> {
  return (
    await queryRoot<{ nodes: ShopifyFunction[] }>(client, SHOPIFY_FUNCTIONS, { apiType }, 'shopifyFunctions')
  ).nodes
}
