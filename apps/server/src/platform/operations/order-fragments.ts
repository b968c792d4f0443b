import type { PlatformMoney } from './shared-fragments.ts'

// Orders as the app reads them (see fragments.ts for how documents use the fragments).

/** What every read of an order asks: enough to list it and to tell its charge's total. */
export const ORDER_SUMMARY_FIELDS = /* GraphQL */ `
  fragment OrderSummaryFields on Order {
    id
    name
    createdAt
    cancelledAt
    test
    totalPriceSet { shopMoney { ...MoneyFields } }
  }
`

export type PlatformOrderSummary = {
  id: string
  name: string
  createdAt: string
  cancelledAt: string | null
  test: boolean
  totalPriceSet: { shopMoney: PlatformMoney }
}

/**
 * Order fields the mirror keeps (`orders` table): one selection for the orders read with a
 * contract in the sync, the contract's further order pages, updated orders and orders/create,
 * so every path writes identical rows.
 */
export const ORDER_FIELDS = /* GraphQL */ `
  fragment OrderFields on Order {
    ...OrderSummaryFields
    totalRefundedSet { shopMoney { amount } }
    customer { id }
  }
`

export type PlatformOrder = PlatformOrderSummary & {
  /** Refunded so far, in the shop's currency (absent where a read does not ask: kept as stored). */
  totalRefundedSet?: { shopMoney: { amount: string } }
  customer: { id: string } | null
}

export type PlatformOrderConnection = {
  nodes: PlatformOrder[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}
