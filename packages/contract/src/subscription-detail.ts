import { z } from 'zod'
import { ZPlatformId } from './primitives.ts'

/** GET /app-admin/subscriptions/:contractId. */
export const ZContractDetailParams = z.object({ contractId: ZPlatformId('契約ID') })

import { ZSubscriptionStatus } from './subscriptions.ts'

const ZMoney = z.object({ amount: z.string(), currencyCode: z.string() })
const ZAnchor = z.object({
  type: z.string(),
  day: z.number().int().nullable(),
  month: z.number().int().nullable(),
  cutoffDay: z.number().int().nullable(),
})

/** A contract line with its pricing policy (base price and cycle discounts, spec §3). */
export const ZSubscriptionDetailLine = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  variantId: z.string().nullable(),
  title: z.string(),
  variantTitle: z.string().nullable(),
  quantity: z.number().int(),
  sellingPlanId: z.string().nullable(),
  sellingPlanName: z.string().nullable(),
  currentPrice: ZMoney,
  variantImageUrl: z.string().nullable(),
  discountAllocations: z.array(z.object({ amount: ZMoney })),
  pricingPolicy: z
    .object({
      basePrice: ZMoney,
      cycleDiscounts: z.array(
        z.object({
          adjustmentType: z.string(),
          adjustmentValue: z.string(),
          afterCycle: z.number().int(),
          computedPrice: ZMoney,
        }),
      ),
    })
    .nullable(),
  /**
   * The line's unit price from the next order (`nextCycle`) on, as ranges of orders (issue 22:
   * the billing engine's price for each of them, the plan's custom cycle discounts included);
   * `to` null: every order from `from` on.
   */
  cyclePrices: z.array(z.object({ from: z.number().int(), to: z.number().int().nullable(), price: ZMoney })),
})

/** GET /app-admin/subscriptions/:contractId — every field spec §3 names for a contract. */
export const ZSubscriptionDetail = z.object({
  contractId: z.string(),
  status: ZSubscriptionStatus,
  /** The platform's revisionId: edits send it back so a stale screen gets 409 (ADR 0008). */
  revision: z.string(),
  customer: z.object({ id: z.string(), displayName: z.string(), email: z.string().nullable() }),
  nextBillingDate: z.string().nullable(),
  /** Japan-time date the merchant set (kept as a contract custom attribute); null until set. */
  nextDeliveryDate: z.string().nullable(),
  /** A delivery time slot code (DELIVERY_TIME_SLOTS) or null when none is set. */
  deliveryTime: z.string().nullable(),
  interval: z.enum(['DAY', 'WEEK', 'MONTH', 'YEAR']),
  intervalCount: z.number().int(),
  anchors: z.array(ZAnchor),
  billingPolicy: z.object({
    interval: z.string(),
    intervalCount: z.number().int(),
    minCycles: z.number().int().nullable(),
    maxCycles: z.number().int().nullable(),
    anchors: z.array(ZAnchor),
  }),
  note: z.string().nullable(),
  orderCount: z.number().int(),
  /** The order number the next charge bills (the checkout is order 1): orderCount + 1. */
  nextCycle: z.number().int(),
  /** When the merchant last changed a line price by hand (price syncs then leave it), or null. */
  priceManuallyChangedAt: z.string().nullable(),
  /** The reason the contract was cancelled with, when it was cancelled from the app. */
  cancellation: z
    .object({ reasonId: z.string().nullable(), reason: z.string(), cancelledAt: z.string() })
    .nullable(),
  lastPaymentStatus: z.string().nullable(),
  currencyCode: z.string(),
  deliveryPrice: ZMoney.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  customAttributes: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
  deliveryMethod: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('shipping'),
      address: z.object({
        firstName: z.string().nullable(),
        lastName: z.string().nullable(),
        zip: z.string().nullable(),
        province: z.string().nullable(),
        city: z.string().nullable(),
        address1: z.string().nullable(),
        address2: z.string().nullable(),
        phone: z.string().nullable(),
        countryCode: z.string().nullable(),
      }),
    }),
    z.object({ kind: z.literal('pickup'), locationName: z.string().nullable() }),
    z.object({ kind: z.literal('local'), phone: z.string().nullable() }),
    z.object({ kind: z.literal('none') }),
  ]),
  /** The customer payment method the contract charges (its numeric id), or null. */
  paymentMethodId: z.string().nullable(),
  paymentMethod: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('card'),
      brand: z.string(),
      lastDigits: z.string(),
      expiryMonth: z.number().int(),
      expiryYear: z.number().int(),
      isExpired: z.boolean(),
    }),
    z.object({ kind: z.literal('paypal'), email: z.string().nullable() }),
    z.object({ kind: z.literal('wallet'), name: z.string().nullable() }),
    z.object({ kind: z.literal('none') }),
  ]),
  discounts: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      usageCount: z.number().int(),
      recurringCycleLimit: z.number().int().nullable(),
      targetType: z.string(),
    }),
  ),
  lines: z.array(ZSubscriptionDetailLine),
  orders: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      createdAt: z.string(),
      test: z.boolean(),
      total: ZMoney,
      cancelledAt: z.string().nullable(),
    }),
  ),
  billingAttempts: z.array(
    z.object({
      id: z.string(),
      createdAt: z.string(),
      /**
       * What became of it (the server's one reading of the platform's outcome fields):
       * processing, charged, failed, or waiting for the customer's 3-D Secure (challenged).
       */
      outcome: z.enum(['pending', 'success', 'failed', 'challenged']),
      ready: z.boolean(),
      errorCode: z.string().nullable(),
      errorMessage: z.string().nullable(),
      orderId: z.string().nullable(),
    }),
  ),
  originOrderId: z.string().nullable(),
})
export const ZPaymentInstrument = ZSubscriptionDetail.shape.paymentMethod
export type PaymentInstrument = z.infer<typeof ZPaymentInstrument>

/** GET /app-admin/subscription-contracts/:id/payment-methods: the customer's methods to choose from. */
export const ZPaymentMethodsResponse = z.object({
  contractId: z.string(),
  currentId: z.string().nullable(),
  methods: z.array(z.object({ id: z.string(), instrument: ZPaymentInstrument, revoked: z.boolean() })),
})
export type PaymentMethodsResponse = z.infer<typeof ZPaymentMethodsResponse>

export type SubscriptionDetail = z.infer<typeof ZSubscriptionDetail>
export type SubscriptionDetailLine = z.infer<typeof ZSubscriptionDetailLine>
