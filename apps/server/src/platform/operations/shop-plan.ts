import type { AdminClient } from '../admin-client.ts'

export const SHOP_PLAN = /* GraphQL */ `
  query ShopPlan {
    shop { plan { displayName partnerDevelopment shopifyPlus } }
  }
`

export type ShopPlan = { displayName: string; partnerDevelopment: boolean; shopifyPlus: boolean }

/** The shop's plan on the platform (Basic, Shopify Plus, a development store…). */
export async function fetchShopPlan(client: AdminClient): Promise<ShopPlan> {
  const data = await client.request<{ shop: { plan: ShopPlan } }>('ShopPlan', SHOP_PLAN)
  return data.shop.plan
}
