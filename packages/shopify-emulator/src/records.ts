/**
 * Stored shapes. Records are plain JSON-friendly data: numeric ids (rendered as GIDs by the
 * resolvers), times as epoch milliseconds and money as numbers in shop currency. Keeping them this
 * lean is what lets a 100,000-contract shop fit in memory. Field names match the GraphQL field
 * they feed so the default resolver reads them directly.
 *
 * Shared sub-objects (policies) may be referenced by several records: mutations must replace
 * them, never edit them in place.
 */
import type { DiscountRecord, ShopExtra } from './records-extra.ts'

export type Money = { amount: string; currencyCode: string }

export type Anchor = {
  type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
  day: number
  month: number | null
  cutoffDay: number | null
}

export type Interval = 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'

export type MailingAddressRecord = {
  id: number
  firstName: string
  lastName: string
  name: string
  company: string | null
  address1: string
  address2: string | null
  city: string
  province: string
  provinceCode: string
  zip: string
  country: string
  countryCodeV2: string
  phone: string | null
}

export type ShopInfo = {
  id: number
  name: string
  myshopifyDomain: string
  email: string
  contactEmail: string
  currencyCode: string
  ianaTimezone: string
  timezoneAbbreviation: string
  timezoneOffsetMinutes: number
  url: string
  primaryDomain: { id: number; url: string; host: string }
  plan: { displayName: string; partnerDevelopment: boolean; shopifyPlus: boolean }
}

export type AppSubscriptionRecord = {
  id: number
  name: string
  status: string
  test: boolean
  trialDays: number
  createdAt: number
  /** The last status change (absent in state saved before it was kept: createdAt then). */
  updatedAt?: number
  currentPeriodEnd: number | null
  returnUrl: string
  lineItems: Array<{ id: number; plan: { pricingDetails: Record<string, unknown> & { __typename: string } } }>
}

export type InstallationRecord = {
  id: number
  accessToken: string
  /** The access scopes the merchant granted the app. */
  scopes: string[]
  /**
   * Scopes the app asks for that the merchant has not granted (`read_all_orders`, say); a state
   * loaded later is not given them (persistence.ts). Absent: none.
   */
  declinedScopes?: string[]
  subscriptions: AppSubscriptionRecord[]
}

export type CustomerRecord = {
  id: number
  firstName: string
  lastName: string
  displayName: string
  email: string | null
  phone: string | null
  note: string | null
  state: 'ENABLED' | 'DISABLED' | 'INVITED' | 'DECLINED'
  verifiedEmail: boolean
  createdAt: number
  updatedAt: number
  numberOfOrders: number
  tags: string[]
  defaultAddress: MailingAddressRecord | null
}

export type PaymentInstrument =
  | {
      __typename: 'CustomerCreditCard'
      brand: string
      lastDigits: string
      expiryMonth: number
      expiryYear: number
      expiresSoon: boolean
      isRevocable: boolean
      name: string
      maskedNumber: string
    }
  | {
      __typename: 'CustomerPaypalBillingAgreement'
      inactive: boolean
      isRevocable: boolean
      paypalAccountEmail: string
    }

export type PaymentMethodRecord = {
  id: number
  customerId: number
  instrument: PaymentInstrument
  revokedAt: number | null
  revokedReason: string | null
  /**
   * The issuer asks for EMV 3-D Secure on every off-session charge of this card: each billing
   * attempt ends challenged until the customer authenticates (absent: false).
   */
  requiresAuthentication?: boolean
}

export type ProductRecord = {
  id: number
  title: string
  handle: string
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT'
  vendor: string
  productType: string
  createdAt: number
  updatedAt: number
  imageUrl: string | null
  variantIds: number[]
}

export type VariantRecord = {
  id: number
  productId: number
  title: string
  sku: string
  price: number
  createdAt: number
  /** Units in stock; absent or null: stock not tracked (always sellable). */
  inventoryQuantity?: number | null
}

export type PricingPolicy = {
  __typename: 'SellingPlanFixedPricingPolicy' | 'SellingPlanRecurringPricingPolicy'
  afterCycle?: number
  adjustmentType: 'PERCENTAGE' | 'FIXED_AMOUNT' | 'PRICE'
  adjustmentValue:
    | { __typename: 'SellingPlanPricingPolicyPercentageValue'; percentage: number }
    | ({ __typename: 'MoneyV2' } & Money)
}

export type SellingPlanBillingPolicy = {
  __typename: 'SellingPlanRecurringBillingPolicy'
  interval: Interval
  intervalCount: number
  minCycles: number | null
  maxCycles: number | null
  anchors: Anchor[]
}

export type SellingPlanDeliveryPolicy = {
  __typename: 'SellingPlanRecurringDeliveryPolicy'
  interval: Interval
  intervalCount: number
  cutoff: number | null
  anchors: Anchor[]
  intent: 'FULFILLMENT_BEGIN'
  preAnchorBehavior: 'ASAP' | 'NEXT'
}

export type SellingPlanRecord = {
  id: number
  name: string
  description: string | null
  category: 'SUBSCRIPTION'
  options: string[]
  position: number | null
  createdAt: number
  billingPolicy: SellingPlanBillingPolicy
  deliveryPolicy: SellingPlanDeliveryPolicy
  pricingPolicies: PricingPolicy[]
}

export type SellingPlanGroupRecord = {
  id: number
  name: string
  merchantCode: string
  description: string | null
  options: string[]
  position: number | null
  summary: string | null
  createdAt: number
  productIds: number[]
  /** Variants added one by one (sellingPlanGroupAddProductVariants), beyond whole products. */
  variantIds?: number[]
  sellingPlans: SellingPlanRecord[]
}

/**
 * A line's SubscriptionPricingPolicy: the variant's price when the line was made from a selling
 * plan, and that plan's pricing policies then. `cycleDiscounts` is the plan's own list (shared,
 * never edited in place); each cycle's `computedPrice` is worked out on read (see pricing.ts).
 */
export type LinePricingPolicyRecord = {
  basePrice: number
  cycleDiscounts: readonly PricingPolicy[]
}

export type ContractLineRecord = {
  id: number
  productId: number
  variantId: number
  title: string
  variantTitle: string | null
  quantity: number
  sku: string | null
  sellingPlanId: number | null
  sellingPlanName: string | null
  currentPrice: number
  /** Absent on lines saved before pricing policies existed: read as null. */
  pricingPolicy?: LinePricingPolicyRecord | null
}

export type ContractStatus = 'ACTIVE' | 'PAUSED' | 'CANCELLED' | 'EXPIRED' | 'FAILED'

/** SubscriptionMailingAddress: where a shipped or locally delivered contract goes. */
export type DeliveryAddressRecord = {
  address1: string
  address2: string | null
  city: string
  company: string | null
  country: string
  countryCode: string
  firstName: string
  lastName: string
  name: string
  phone: string | null
  province: string
  provinceCode: string
  zip: string
}

/** A member of the SubscriptionDeliveryMethod union. */
export type DeliveryMethodRecord =
  | {
      __typename: 'SubscriptionDeliveryMethodShipping'
      address: DeliveryAddressRecord
      shippingOption: { title: string; presentmentTitle: string; description: string | null; code: string }
    }
  | {
      __typename: 'SubscriptionDeliveryMethodPickup'
      pickupOption: {
        title: string | null
        presentmentTitle: string | null
        description: string | null
        code: string | null
        /** The shop's pickup location (`Location`), kept inline: the emulator has no location records. */
        location: { id: number; name: string }
      }
    }
  | {
      __typename: 'SubscriptionDeliveryMethodLocalDelivery'
      address: DeliveryAddressRecord
      localDeliveryOption: {
        title: string | null
        presentmentTitle: string | null
        description: string | null
        code: string | null
        phone: string
        instructions: string | null
      }
    }

export type ContractRecord = {
  id: number
  status: ContractStatus
  createdAt: number
  updatedAt: number
  nextBillingDate: number | null
  currencyCode: string
  note: string | null
  lastPaymentStatus: 'SUCCEEDED' | 'FAILED' | null
  revisionId: number
  customerId: number
  paymentMethodId: number | null
  originOrderId: number | null
  billingPolicy: Omit<SellingPlanBillingPolicy, '__typename'>
  deliveryPolicy: Omit<SellingPlanBillingPolicy, '__typename' | 'minCycles' | 'maxCycles'>
  deliveryPrice: number
  customAttributes: Array<{ key: string; value: string | null }>
  deliveryMethod: DeliveryMethodRecord | null
  lines: ContractLineRecord[]
  orderIds: number[]
  billingAttemptIds: number[]
  /** Manual discounts; absent on generated contracts (none), set by draft commits. */
  discounts?: DiscountRecord[]
}

/** Order line items are not stored: they are the contract's lines at read time (see orders resolver). */
export type OrderRecord = {
  id: number
  /** Order number; the name is `#${number}` (a number is far lighter than 900,000 strings). */
  number: number
  createdAt: number
  updatedAt: number
  cancelledAt: number | null
  test: boolean
  customerId: number | null
  contractId: number | null
  totalPriceSet: number
  /**
   * The order's note attributes (`customAttributes`): the cart's at checkout, the contract's on a
   * renewal, what orderUpdate set since. Absent when none (900,000 orders stay light).
   */
  customAttributes?: Array<{ key: string; value: string }>
  /** Refunds made (refundCreate), oldest first; absent until the first (900,000 orders stay light). */
  refunds?: RefundRecord[]
}

/** A refund of an order: the money returned (the sum of its REFUND transactions), shop currency. */
export type RefundRecord = {
  id: number
  orderId: number
  createdAt: number
  note: string | null
  amount: number
}

export type BillingAttemptRecord = {
  id: number
  contractId: number
  createdAt: number
  completedAt: number | null
  originTime: number | null
  ready: boolean
  errorCode: string | null
  errorMessage: string | null
  /** null means the generator's key, derived on read to keep big shops small. */
  idempotencyKey: string | null
  orderId: number | null
  /**
   * Where the customer completes 3-D Secure for a challenged attempt (the deprecated 2025-04
   * field of the same name); kept after the challenge is completed or failed. Absent: null.
   */
  nextActionUrl?: string | null
  /** The secret part of `nextActionUrl` while the challenge is open; null once it is settled. */
  challengeToken?: string | null
}

export type ShopState = {
  /** How the shop was generated, so a shop too big to save can be regenerated identically. */
  generatedWith: { seed: number; now: number; contracts: number; customers?: number; withAppPlan?: boolean }
  info: ShopInfo
  installation: InstallationRecord
  customers: CustomerRecord[]
  paymentMethods: PaymentMethodRecord[]
  products: ProductRecord[]
  variants: VariantRecord[]
  sellingPlanGroups: SellingPlanGroupRecord[]
  contracts: ContractRecord[]
  orders: OrderRecord[]
  billingAttempts: BillingAttemptRecord[]
  /** Next id per GID type; every array above is sorted by id because ids only grow. */
  nextIds: Record<string, number>
  /** Mutation-only state (drafts, webhooks, themes…), created on first use: see shop-extra.ts. */
  extra?: ShopExtra
}
