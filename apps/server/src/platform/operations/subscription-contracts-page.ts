import type { AdminClient } from '../admin-client.ts'

/**
 * Contract fields the mirror keeps (lines: the spec's default of up to 20 per contract). One
 * selection for the sync pages and the single-contract refetch of webhooks and actions, so
 * every path writes identical rows.
 */
export const SUBSCRIPTION_CONTRACT_SELECTION = /* GraphQL */ `{
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
}`

export const SUBSCRIPTION_CONTRACTS_PAGE = /* GraphQL */ `
  query SubscriptionContractsPage($first: Int!, $after: String, $query: String) {
    subscriptionContracts(first: $first, after: $after, query: $query) {
      nodes ${SUBSCRIPTION_CONTRACT_SELECTION}
      pageInfo { hasNextPage endCursor }
    }
  }
`

export type PlatformContractLine = {
  id: string
  productId: string | null
  variantId: string | null
  title: string
  variantTitle: string | null
  quantity: number
  sku: string | null
  sellingPlanId: string | null
  sellingPlanName: string | null
  currentPrice: { amount: string; currencyCode: string }
  variantImage: { url: string } | null
}

export type PlatformContract = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  createdAt: string
  updatedAt: string
  nextBillingDate: string | null
  currencyCode: string
  note: string | null
  lastPaymentStatus: string | null
  revisionId: string | null
  customer: { id: string } | null
  billingPolicy: {
    interval: string
    intervalCount: number
    minCycles: number | null
    maxCycles: number | null
  }
  deliveryPolicy: Record<string, unknown>
  deliveryPrice: { amount: string; currencyCode: string } | null
  customAttributes: Array<{ key: string; value: string | null }>
  originOrder: { id: string } | null
  deliveryMethod: Record<string, unknown> | null
  customerPaymentMethod: Record<string, unknown> | null
  lines: { nodes: PlatformContractLine[] }
}

type Page = {
  subscriptionContracts: {
    nodes: PlatformContract[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}

export async function fetchSubscriptionContractsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null; query?: string },
): Promise<Page['subscriptionContracts']> {
  return (await client.request<Page>('SubscriptionContractsPage', SUBSCRIPTION_CONTRACTS_PAGE, variables))
    .subscriptionContracts
}
