import type { PlatformOrderSummary } from './order-fragments.ts'
import type { PlatformAdjustmentValue, PlatformAnchor, PlatformMoney } from './shared-fragments.ts'

// Subscription contracts, their lines and their billing attempts as the app reads them (see
// fragments.ts for how documents use the fragments).

/**
 * Lines asked for with each contract: the spec's default of 20, which is all of almost every
 * contract. A contract with more (big boxes: 60, 200 for one tenant) is read on from the
 * connection's end cursor by SUBSCRIPTION_CONTRACT_LINES_PAGE, so no path ever keeps a
 * contract cut to its first page (the mirror replaces a contract's lines with what was read).
 */
export const CONTRACT_LINES_FIRST = 20

/**
 * A contract's state as a status move answers it and the billing engine checks it before a
 * charge: scalars of one object (1 point).
 */
export const CONTRACT_STATUS_FIELDS = /* GraphQL */ `
  fragment ContractStatusFields on SubscriptionContract { id status nextBillingDate updatedAt revisionId }
`

export type PlatformContractStatus = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  nextBillingDate: string | null
  updatedAt: string
  revisionId: string | null
}

/** Line fields the mirror keeps (`subscription_lines`), for every path that reads a contract's lines. */
export const LINE_FIELDS = /* GraphQL */ `
  fragment LineFields on SubscriptionLine {
    id
    productId
    variantId
    title
    variantTitle
    quantity
    sku
    sellingPlanId
    sellingPlanName
    currentPrice { ...MoneyFields }
    variantImage { url }
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
  currentPrice: PlatformMoney
  variantImage: { url: string } | null
}

export type PlatformLineConnection = {
  nodes: PlatformContractLine[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

/**
 * A line's pricing policy as the billing engine prices cycles from it: in the bulk export, the
 * engine's own pricing read and (with each cycle's computed price) the contract detail.
 */
export const LINE_PRICING_POLICY_FIELDS = /* GraphQL */ `
  fragment LinePricingPolicyFields on SubscriptionPricingPolicy {
    basePrice { ...MoneyFields }
    cycleDiscounts {
      adjustmentType
      adjustmentValue { ...PricingValue }
      afterCycle
    }
  }
`

export type PlatformCycleDiscount = {
  adjustmentType: 'PERCENTAGE' | 'FIXED_AMOUNT' | 'PRICE'
  adjustmentValue: PlatformAdjustmentValue
  afterCycle: number
}

export type PlatformPricingPolicy = { basePrice: PlatformMoney; cycleDiscounts: PlatformCycleDiscount[] }

/**
 * A line as the detail page shows it: the mirror's fields with its discount allocations and its
 * pricing policy, each cycle discount with the price it comes to (asked beside the shared
 * policy fields: GraphQL merges the two `cycleDiscounts` selections into one).
 */
export const DETAIL_LINE_FIELDS = /* GraphQL */ `
  fragment DetailLineFields on SubscriptionLine {
    ...LineFields
    discountAllocations { amount { ...MoneyFields } }
    pricingPolicy {
      ...LinePricingPolicyFields
      cycleDiscounts { computedPrice { ...MoneyFields } }
    }
  }
`

export type PlatformDetailLine = PlatformContractLine & {
  discountAllocations: Array<{ amount: PlatformMoney }>
  pricingPolicy: {
    basePrice: PlatformMoney
    cycleDiscounts: Array<PlatformCycleDiscount & { computedPrice: PlatformMoney }>
  } | null
}

export type PlatformDetailLineConnection = {
  nodes: PlatformDetailLine[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}

/** The contract's own fields both the mirror and the detail page read. */
export const CONTRACT_CORE_FIELDS = /* GraphQL */ `
  fragment ContractCoreFields on SubscriptionContract {
    id
    status
    createdAt
    updatedAt
    nextBillingDate
    currencyCode
    note
    lastPaymentStatus
    revisionId
    billingPolicy { interval intervalCount minCycles maxCycles anchors { ...AnchorFields } }
    deliveryPrice { ...MoneyFields }
    customAttributes { key value }
    originOrder { id }
  }
`

export type PlatformContractCore = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  createdAt: string
  updatedAt: string
  nextBillingDate: string | null
  currencyCode: string
  note: string | null
  lastPaymentStatus: string | null
  /** Never null on the platform (UnsignedInt64!); typed as the status mutations' answers are, which the mirror's copy is patched from. */
  revisionId: string | null
  billingPolicy: {
    interval: string
    intervalCount: number
    minCycles: number | null
    maxCycles: number | null
    anchors: PlatformAnchor[]
  }
  deliveryPrice: PlatformMoney | null
  customAttributes: Array<{ key: string; value: string | null }>
  originOrder: { id: string } | null
}

/**
 * Contract fields the mirror keeps (`subscription_contracts`), without its connections: the
 * bulk export reads those in its own form (no `first`, no cursors).
 */
export const CONTRACT_FIELDS = /* GraphQL */ `
  fragment ContractFields on SubscriptionContract {
    ...ContractCoreFields
    customer { id }
    deliveryPolicy { interval intervalCount anchors { ...AnchorFields } }
    deliveryMethod {
      __typename
      ... on SubscriptionDeliveryMethodShipping { address { ...DeliveryAddressFields } }
    }
    customerPaymentMethod {
      id
      instrument {
        __typename
        ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear }
      }
    }
  }
`

/**
 * The contract with its first CONTRACT_LINES_FIRST lines (then paged). One selection for the
 * sync pages and the single-contract refetch of webhooks, edits and billing, so every path
 * writes identical contract rows. The pages add the contract's orders; a refetch does not need
 * them (new orders come with the billing webhooks) and costs half as much without.
 */
export const CONTRACT_WITH_FIRST_LINES = /* GraphQL */ `
  fragment ContractWithFirstLines on SubscriptionContract {
    ...ContractFields
    lines(first: ${CONTRACT_LINES_FIRST}) {
      nodes { ...LineFields }
      pageInfo { hasNextPage endCursor }
    }
  }
`

export type PlatformContract = PlatformContractCore & {
  customer: { id: string } | null
  deliveryPolicy: Record<string, unknown>
  deliveryMethod: Record<string, unknown> | null
  customerPaymentMethod: Record<string, unknown> | null
  lines: PlatformLineConnection
}

/**
 * The attempt fields the app reads: for the billing-attempt webhooks and the poll's batch query.
 * `ready`, `errorCode`, `errorMessage`, `nextActionUrl` and `order` are deprecated in 2025-04 in
 * favour of `state`, but still served, and they are what the emulator implements;
 * platform/attempt-outcome.ts is the one reader of them.
 */
export const BILLING_ATTEMPT_FIELDS = /* GraphQL */ `
  fragment BillingAttemptFields on SubscriptionBillingAttempt {
    id
    idempotencyKey
    createdAt
    completedAt
    ready
    errorCode
    errorMessage
    nextActionUrl
    order { ...OrderSummaryFields }
  }
`

export type PlatformBillingOrder = PlatformOrderSummary & {
  /** Not asked (a point per attempt read): the mirror takes the customer from the contract. */
  customer?: { id: string } | null
}

export type PlatformBillingAttempt = {
  id: string
  idempotencyKey: string
  createdAt: string
  completedAt: string | null
  ready: boolean
  errorCode: string | null
  errorMessage: string | null
  /** Where the customer completes 3-D Secure when the issuer challenged the charge. */
  nextActionUrl: string | null
  order: PlatformBillingOrder | null
}
