import type { SubscriptionDetail, SubscriptionStatus } from '@teiki/contract'
import {
  attributeValue,
  type CustomCycleDiscount,
  type CycleDiscount,
  DELIVERY_TIME_ATTRIBUTE,
  deliveryDateOf,
  deliveryTimeSlot,
  linePriceRanges,
} from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { attemptOutcome } from '../../platform/attempt-outcome.ts'
import { PlatformUnavailableError } from '../../platform/errors.ts'
import { idFromGid, lineIdOf, maybeIdFromGid, toGid } from '../../platform/gid.ts'
import type { PlatformDetailLine } from '../../platform/operations/contract-fragments.ts'
import {
  fetchSubscriptionContractDetail,
  type PlatformContractDetail,
} from '../../platform/operations/subscription-contract-detail.ts'
import { adjustmentValueText } from '../../platform/operations/subscription-line-pricing.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'
import { planCycleDiscounts } from '../selling-plans/cycle-discounts-service.ts'
import { paymentInstrument } from './payment-instrument.ts'

const CONTRACT_NOT_FOUND = '契約が見つかりません'
const PLATFORM_UNAVAILABLE = 'Shopify に接続できませんでした。しばらくしてから再度お試しください。'

export type ContractDetailOptions = {
  db: Db
  clients: ShopClients
  /** Clock for the card's expiry (tests fix it). */
  now?: () => Date
}

export type ContractDetails = {
  get(shop: ShopRow, contractId: string): Promise<SubscriptionDetail>
}

/**
 * One contract for the detail page (spec §3). The mirror decides whether the shop may see
 * it (another shop's id or an unknown one is 404 without a platform call) and gives the
 * order count; everything else is read live from the platform, the truth for orders,
 * billing attempts, discounts and the payment method.
 */
export function createContractDetails(opts: ContractDetailOptions): ContractDetails {
  const now = opts.now ?? (() => new Date())

  async function get(shop: ShopRow, contractId: string): Promise<SubscriptionDetail> {
    const { rows } = await opts.db.query<MirrorFields>(
      `select ${ORDER_COUNT_SQL} as order_count, c.price_manually_changed_at,
         cc.reason_id::text as cancellation_reason_id, cc.reason as cancellation_reason,
         cc.cancelled_at as cancellation_at
       from subscription_contracts c
       left join contract_cancellations cc on cc.shop_id = c.shop_id and cc.contract_id = c.id
       where c.shop_id = $1 and c.id = $2`,
      [shop.id, contractId],
    )
    const mirrored = rows[0]
    if (!mirrored) throw notFound(CONTRACT_NOT_FOUND)

    const client = opts.clients.clientFor(shop)
    let contract: PlatformContractDetail | null
    try {
      contract = await fetchSubscriptionContractDetail(client, toGid('SubscriptionContract', contractId))
    } catch (error) {
      if (error instanceof PlatformUnavailableError) {
        throw new AppError('PLATFORM_UNAVAILABLE', PLATFORM_UNAVAILABLE, { cause: error })
      }
      throw error
    }
    // Deleted on the platform since the mirror last saw it.
    if (!contract) throw notFound(CONTRACT_NOT_FOUND)
    const planIds = contract.lines.nodes.flatMap((l) => maybeIdFromGid(l.sellingPlanId) ?? [])
    const rules = await planCycleDiscounts(opts.db, shop.id, planIds)
    return toDetail(contract, mirrored, now(), rules)
  }

  return { get }
}

const INTERVALS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const
type Interval = (typeof INTERVALS)[number]

/** What the app keeps about a contract beside the platform's state. */
export type MirrorFields = {
  order_count: number
  price_manually_changed_at: Date | null
  cancellation_reason_id: string | null
  cancellation_reason: string | null
  cancellation_at: Date | null
}

export const NO_MIRROR_FIELDS: MirrorFields = {
  order_count: 0,
  price_manually_changed_at: null,
  cancellation_reason_id: null,
  cancellation_reason: null,
  cancellation_at: null,
}

/**
 * Maps the platform's contract to the response; exported for unit tests. `rules`: the app's
 * custom cycle discounts of the lines' plans, by plan id (the lines' prices per order).
 */
export function toDetail(
  c: PlatformContractDetail,
  mirror: MirrorFields,
  now: Date,
  rules: ReadonlyMap<string, readonly CustomCycleDiscount[]> = new Map(),
): SubscriptionDetail {
  const nextCycle = mirror.order_count + 1
  const pricing = { currencyCode: c.currencyCode, manualPrices: mirror.price_manually_changed_at !== null }
  const anchors = c.billingPolicy.anchors.map((a) => ({
    type: a.type,
    day: a.day ?? null,
    month: a.month ?? null,
    cutoffDay: a.cutoffDay ?? null,
  }))
  const interval = c.billingPolicy.interval
  if (!(INTERVALS as readonly string[]).includes(interval)) {
    throw new Error(`unexpected billing interval ${interval}`)
  }
  return {
    contractId: idFromGid(c.id),
    status: c.status as SubscriptionStatus,
    revision: c.revisionId,
    customer: c.customer
      ? { id: idFromGid(c.customer.id), displayName: c.customer.displayName, email: c.customer.email ?? null }
      : { id: '', displayName: '', email: null },
    nextBillingDate: c.nextBillingDate,
    nextDeliveryDate: deliveryDateOf(c.customAttributes),
    deliveryTime: deliveryTimeSlot(attributeValue(c.customAttributes, DELIVERY_TIME_ATTRIBUTE)),
    interval: interval as Interval,
    intervalCount: c.billingPolicy.intervalCount,
    anchors,
    billingPolicy: {
      interval,
      intervalCount: c.billingPolicy.intervalCount,
      minCycles: c.billingPolicy.minCycles ?? null,
      maxCycles: c.billingPolicy.maxCycles ?? null,
      anchors,
    },
    note: c.note,
    orderCount: mirror.order_count,
    nextCycle,
    priceManuallyChangedAt: mirror.price_manually_changed_at?.toISOString() ?? null,
    cancellation:
      mirror.cancellation_reason !== null && mirror.cancellation_at !== null
        ? {
            reasonId: mirror.cancellation_reason_id,
            reason: mirror.cancellation_reason,
            cancelledAt: mirror.cancellation_at.toISOString(),
          }
        : null,
    lastPaymentStatus: c.lastPaymentStatus,
    currencyCode: c.currencyCode,
    deliveryPrice: c.deliveryPrice
      ? { amount: c.deliveryPrice.amount, currencyCode: c.deliveryPrice.currencyCode }
      : null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    customAttributes: c.customAttributes.map((a) => ({ key: a.key, value: a.value ?? null })),
    deliveryMethod: deliveryMethod(c.deliveryMethod),
    paymentMethodId: maybeIdFromGid(c.customerPaymentMethod?.id),
    paymentMethod: paymentInstrument(c.customerPaymentMethod?.instrument, now),
    discounts: c.discounts.nodes.map((d) => ({
      id: idFromGid(d.id),
      title: d.title ?? '',
      usageCount: d.usageCount,
      recurringCycleLimit: d.recurringCycleLimit ?? null,
      targetType: d.targetType,
    })),
    lines: c.lines.nodes.map((l) => ({
      // Line GIDs are UUID-like on the platform: the last segment, not a number.
      id: lineIdOf(l.id),
      productId: maybeIdFromGid(l.productId),
      variantId: maybeIdFromGid(l.variantId),
      title: l.title,
      variantTitle: l.variantTitle ?? null,
      quantity: l.quantity,
      sellingPlanId: maybeIdFromGid(l.sellingPlanId),
      sellingPlanName: l.sellingPlanName ?? null,
      currentPrice: { amount: l.currentPrice.amount, currencyCode: l.currentPrice.currencyCode },
      variantImageUrl: l.variantImage?.url ?? null,
      discountAllocations: l.discountAllocations.map((a) => ({ amount: money(a.amount) })),
      pricingPolicy: l.pricingPolicy
        ? {
            basePrice: money(l.pricingPolicy.basePrice),
            cycleDiscounts: l.pricingPolicy.cycleDiscounts.map((d) => ({
              adjustmentType: d.adjustmentType,
              adjustmentValue: adjustmentValueText(d.adjustmentValue),
              afterCycle: d.afterCycle,
              computedPrice: money(d.computedPrice),
            })),
          }
        : null,
      cyclePrices: cyclePricesOf(l, rules, pricing, nextCycle),
    })),
    orders: c.orders.nodes.map((o) => ({
      id: idFromGid(o.id),
      name: o.name,
      createdAt: o.createdAt,
      test: o.test,
      total: {
        amount: o.totalPriceSet.shopMoney.amount,
        currencyCode: o.totalPriceSet.shopMoney.currencyCode,
      },
      cancelledAt: o.cancelledAt ?? null,
    })),
    billingAttempts: c.billingAttempts.nodes.map((b) => ({
      id: idFromGid(b.id),
      createdAt: b.createdAt,
      outcome: attemptOutcome(b).kind,
      ready: b.ready,
      errorCode: b.errorCode ?? null,
      errorMessage: b.errorMessage ?? null,
      orderId: maybeIdFromGid(b.order?.id),
    })),
    originOrderId: maybeIdFromGid(c.originOrder?.id),
  }
}

/** The line's unit price per order from `nextCycle` on, by the engine's one rule (linePriceForCycle). */
export function cyclePricesOf(
  l: PlatformDetailLine,
  rules: ReadonlyMap<string, readonly CustomCycleDiscount[]>,
  pricing: { currencyCode: string; manualPrices: boolean },
  nextCycle: number,
): SubscriptionDetail['lines'][number]['cyclePrices'] {
  const policy = l.pricingPolicy
  const line = {
    currentPrice: l.currentPrice.amount,
    pricingPolicy: policy
      ? {
          basePrice: policy.basePrice.amount,
          cycleDiscounts: policy.cycleDiscounts.map((d) => ({
            adjustmentType: d.adjustmentType as CycleDiscount['adjustmentType'],
            adjustmentValue: adjustmentValueText(d.adjustmentValue),
            afterCycle: d.afterCycle,
          })),
        }
      : null,
    planRules: rules.get(maybeIdFromGid(l.sellingPlanId) ?? '') ?? [],
  }
  return linePriceRanges(line, pricing, nextCycle).map((r) => ({
    from: r.from,
    to: r.to,
    price: { amount: r.price, currencyCode: l.currentPrice.currencyCode },
  }))
}

const money = (m: { amount: string; currencyCode: string }) => ({
  amount: m.amount,
  currencyCode: m.currencyCode,
})

function deliveryMethod(m: PlatformContractDetail['deliveryMethod']): SubscriptionDetail['deliveryMethod'] {
  if (!m) return { kind: 'none' }
  if (m.__typename === 'SubscriptionDeliveryMethodShipping') {
    const a = m.address
    return {
      kind: 'shipping',
      address: {
        firstName: a.firstName ?? null,
        lastName: a.lastName ?? null,
        zip: a.zip ?? null,
        province: a.province ?? null,
        city: a.city ?? null,
        address1: a.address1 ?? null,
        address2: a.address2 ?? null,
        phone: a.phone ?? null,
        countryCode: a.countryCode ?? null,
      },
    }
  }
  if (m.__typename === 'SubscriptionDeliveryMethodPickup')
    return { kind: 'pickup', locationName: m.pickupOption.location.name }
  if (m.__typename === 'SubscriptionDeliveryMethodLocalDelivery')
    return { kind: 'local', phone: m.localDeliveryOption.phone }
  return { kind: 'none' }
}
