import type { AdminClient } from '../admin-client.ts'

/** Order fields the mirror keeps (`orders` table), for the contract's nested connection. */
export const ORDER_SELECTION = /* GraphQL */ `{
            id
            name
            createdAt
            cancelledAt
            test
            totalPriceSet { shopMoney { amount currencyCode } }
            totalRefundedSet { shopMoney { amount } }
            customer { id }
}`

/**
 * Orders asked for with each contract: the newest first (`reverse`), which is all of most
 * contracts (the demo shop: median 7, 90th percentile 17). A contract with more is read on by
 * `SUBSCRIPTION_CONTRACT_ORDERS_PAGE` from the connection's end cursor. Each order costs 6
 * points (itself, its two money bags, their shopMoney and its customer); 20 keeps a page of SYNC_PAGE_SIZES.contracts contracts under the 1,000-point cap.
 */
export const CONTRACT_ORDERS_FIRST = 20

/** Line fields the mirror keeps (`subscription_lines`), for every path that reads a contract's lines. */
export const LINE_SELECTION = /* GraphQL */ `{
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
}`

/**
 * Lines asked for with each contract: the spec's default of 20, which is all of almost every
 * contract. A contract with more (big boxes: 60, 200 for one tenant) is read on from the
 * connection's end cursor by SUBSCRIPTION_CONTRACT_LINES_PAGE, so no path ever keeps a
 * contract cut to its first page (the mirror replaces a contract's lines with what was read).
 */
export const CONTRACT_LINES_FIRST = 20

/**
 * Contract fields the mirror keeps (lines: the first CONTRACT_LINES_FIRST, then paged). One
 * selection for the sync pages and the single-contract refetch of webhooks, edits and
 * billing, so every path writes identical contract rows. The pages add the contract's orders
 * (SUBSCRIPTION_CONTRACT_PAGE_SELECTION); a refetch does not need them (new orders come with
 * the billing webhooks) and costs half as much without.
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
        lines(first: ${CONTRACT_LINES_FIRST}) {
          nodes ${LINE_SELECTION}
          pageInfo { hasNextPage endCursor }
        }
}`

/** The page's selection: the contract's fields plus its newest orders with the cursor to read on. */
export const SUBSCRIPTION_CONTRACT_PAGE_SELECTION = SUBSCRIPTION_CONTRACT_SELECTION.replace(
  /}\s*$/,
  `  orders(first: ${CONTRACT_ORDERS_FIRST}, reverse: true) {
          nodes ${ORDER_SELECTION}
          pageInfo { hasNextPage endCursor }
        }
}`,
)

export const SUBSCRIPTION_CONTRACTS_PAGE = /* GraphQL */ `
  query SubscriptionContractsPage($first: Int!, $after: String, $query: String) {
    subscriptionContracts(first: $first, after: $after, query: $query) {
      nodes ${SUBSCRIPTION_CONTRACT_PAGE_SELECTION}
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
  lines: PlatformLineConnection
}

export type PlatformLineConnection = {
  nodes: PlatformContractLine[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

/** A contract as the sync pages and the bulk export read it: with its newest orders. */
export type PlatformPagedContract = PlatformContract & { orders: PlatformOrderConnection }

export type PlatformOrder = {
  id: string
  name: string
  createdAt: string
  cancelledAt: string | null
  test: boolean
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } }
  /** Refunded so far, in the shop's currency (absent where a read does not ask: kept as stored). */
  totalRefundedSet?: { shopMoney: { amount: string } }
  customer: { id: string } | null
}

export type PlatformOrderConnection = {
  nodes: PlatformOrder[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

type Page = {
  subscriptionContracts: {
    nodes: PlatformPagedContract[]
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
