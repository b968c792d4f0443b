import type { AdminClient } from '../admin-client.ts'

export const SHOP_FEATURES = /* GraphQL */ `
  query ShopFeatures {
    shop { features { eligibleForSubscriptions } }
  }
`

/** Whether the shop may sell subscriptions on the platform (its payment gateway supports them). */
export async function fetchEligibleForSubscriptions(client: AdminClient): Promise<boolean> {
  const data = await client.request<{ shop: { features: { eligibleForSubscriptions: boolean } } }>(
    'ShopFeatures',
    SHOP_FEATURES,
  )
  return data.shop.features.eligibleForSubscriptions
}
