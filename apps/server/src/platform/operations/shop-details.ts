import type { AdminClient } from '../admin-client.ts'
import type { ActiveAppSubscription } from './app-subscription-fragments.ts'
import { withFragments } from './fragments.ts'

// The subscriptions' plan fields are the plan record's fragment; this read adds when each was
// created and its billing interval (GraphQL merges the second lineItems selection into the
// fragment's).
export const SHOP_DETAILS = withFragments(/* GraphQL */ `
  query ShopDetails {
    shop {
      id
      name
      myshopifyDomain
      currencyCode
      ianaTimezone
      primaryDomain { url host }
      plan { displayName partnerDevelopment shopifyPlus }
    }
    currentAppInstallation {
      id
      accessScopes { handle }
      activeSubscriptions {
        ...AppSubscriptionFields
        createdAt
        lineItems { plan { pricingDetails { ... on AppRecurringPricing { interval } } } }
      }
    }
  }
`)

export type ShopDetails = {
  shop: {
    id: string
    name: string
    myshopifyDomain: string
    currencyCode: string
    ianaTimezone: string
    primaryDomain: { url: string; host: string } | null
    plan: { displayName: string; partnerDevelopment: boolean; shopifyPlus: boolean }
  }
  currentAppInstallation: {
    id: string
    accessScopes: Array<{ handle: string }>
    activeSubscriptions: Array<ActiveAppSubscription & { createdAt: string }>
  }
}

export function fetchShopDetails(client: AdminClient): Promise<ShopDetails> {
  return client.request<ShopDetails>('ShopDetails', SHOP_DETAILS)
}
