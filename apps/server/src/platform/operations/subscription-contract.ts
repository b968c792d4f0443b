import type { AdminClient } from '../admin-client.ts'
import type { PlatformContract } from './subscription-contracts-page.ts'

/**
 * One contract's current state, for webhooks: their payloads carry only a few fields, so the
 * mirror is refreshed from this. The selection is the same as the sync page's nodes (a test
 * compares them) so both paths write identical rows.
 */
export const SUBSCRIPTION_CONTRACT = /* GraphQL */ `
  query SubscriptionContract($id: ID!) {
    subscriptionContract(id: $id) {
      id
      status
      createdAt
      updatedAt
      nextBillingDate
      currencyCode
      note
      lastPaymentStatus
      revisionId
      customer { id }
      billingPolicy { interval intervalCount minCycles maxCycles anchors { day month type cutoffDay } }
      deliveryPolicy { interval intervalCount anchors { day month type cutoffDay } }
      deliveryPrice { amount currencyCode }
      customAttributes { key value }
      originOrder { id }
      deliveryMethod {
        __typename
        ... on SubscriptionDeliveryMethodShipping {
          address { address1 address2 city province provinceCode zip countryCode firstName lastName phone }
        }
      }
      customerPaymentMethod {
        id
        instrument {
          __typename
          ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear }
        }
      }
      lines(first: 20) {
        nodes {
          id
          productId
          variantId
          title
          variantTitle
          quantity
          sku
          sellingPlanId
          sellingPlanName
          currentPrice { amount currencyCode }
          variantImage { url }
        }
      }
    }
  }
`

/** The contract, or null when the platform no longer has it. */
export async function fetchSubscriptionContract(
  client: AdminClient,
  id: string,
): Promise<PlatformContract | null> {
  const data = await client.request<{ subscriptionContract: PlatformContract | null }>(
    'SubscriptionContract',
    SUBSCRIPTION_CONTRACT,
    { id },
  )
  return data.subscriptionContract
}
