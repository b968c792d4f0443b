import type { AdminClient } from '../admin-client.ts'

export const SHOP_DETAILS = /* GraphQL */ `
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
        id
        name
        status
        test
        trialDays
        currentPeriodEnd
        createdAt
        lineItems {
          plan {
            pricingDetails {
              __typename
              ... on AppRecurringPricing { interval price { amount currencyCode } }
            }
          }
        }
      }
    }
  }
`

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
    activeSubscriptions: Array<{
      id: string
      name: string
      status: string
      test: boolean
      trialDays: number
      currentPeriodEnd: string | null
      createdAt: string
      lineItems: Array<{
        plan: { pricingDetails: { __typename: string; price?: { amount: string; currencyCode: string } } }
      }>
    }>
  }
}

export function fetchShopDetails(client: AdminClient): Promise<ShopDetails> {
  return client.request<ShopDetails>('ShopDetails', SHOP_DETAILS)
}
