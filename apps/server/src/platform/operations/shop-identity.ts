import type { AdminClient } from '../admin-client.ts'

/**
 * The cheapest call there is (1 point): asked with a shop's stored token before an
 * app/uninstalled is applied, because only the platform refusing that token (401/403) shows
 * the uninstall really happened; the delivery's headers are not signed.
 */
export const SHOP_IDENTITY = /* GraphQL */ `
  query ShopIdentity {
    shop { id }
  }
`

export async function fetchShopIdentity(client: AdminClient): Promise<{ id: string }> {
  const data = await client.request<{ shop: { id: string } }>('ShopIdentity', SHOP_IDENTITY)
  return data.shop
}
