import { DELIVERY_TIME_ATTRIBUTE, type DeliveryTimeSlot, deliveryTimeLabel } from '@teiki/domain'
import { percentOff } from '../pricing.ts'
import type {
  ContractLineRecord,
  ContractRecord,
  ContractStatus,
  ShopState,
  VariantRecord,
} from '../records.ts'
import { nextId } from '../store.ts'
import { failure } from './failures.ts'
import type { History } from './history.ts'
import type { Rng } from './prng.ts'
import type { PlanChoice } from './products.ts'
import { billingDates, DAY } from './schedule.ts'

const statuses: readonly ContractStatus[] = ['ACTIVE', 'CANCELLED', 'PAUSED', 'FAILED', 'EXPIRED']
const statusWeights = [62, 18, 9, 6, 5]
/**
 * The time slots a demo contract may carry, written as the app writes them when a merchant sets
 * one in 契約詳細 (issue 23: the demo wrote 配送希望時間帯 = 14-16時, which the app never read).
 */
const timeSlots: readonly DeliveryTimeSlot[] = ['AM', '14-16', '16-18', '18-20', '19-21']
const notes = ['置き配を希望します', 'ギフト用のため明細書は不要です', '不在時は宅配ボックスへ']

const FREE_SHIPPING_FROM = 5000
const SHIPPING_FEE = 550

function unitPrices(price: number, choice: PlanChoice): { first: number; recurring: number } {
  const t = choice.template
  if (t.fixedAmountOff !== null) {
    const p = Math.max(0, price - t.fixedAmountOff)
    return { first: p, recurring: p }
  }
  // JPY has no minor unit: percentages round half up to whole yen (exactly, see percentOff).
  const off = (pct: number | null) => (pct === null ? price : percentOff(price, pct, 'JPY'))
  return { first: off(t.firstPercent), recurring: off(t.recurringPercent ?? t.firstPercent) }
}

function lines(rng: Rng, shop: ShopState, choice: PlanChoice, variants: readonly VariantRecord[]) {
  const count = Math.min(variants.length, rng.weighted([1, 2, 3], [70, 22, 8]))
  const picked = new Set<VariantRecord>()
  while (picked.size < count) picked.add(rng.pick(variants))
  const out: ContractLineRecord[] = []
  let firstTotal = 0
  let recurringTotal = 0
  for (const v of picked) {
    const quantity = rng.weighted([1, 2, 3], [80, 15, 5])
    const product = shop.products.find((p) => p.id === v.productId)!
    const plan = choice.group.sellingPlans.find((p) => p.name === choice.template.name)!
    const prices = unitPrices(v.price, choice)
    firstTotal += prices.first * quantity
    recurringTotal += prices.recurring * quantity
    out.push({
      id: nextId(shop, 'SubscriptionLine'),
      productId: v.productId,
      variantId: v.id,
      title: product.title,
      variantTitle: v.title,
      quantity,
      sku: v.sku,
      sellingPlanId: plan.id,
      sellingPlanName: plan.name,
      currentPrice: prices.recurring,
      // The plan's policies are shared, not copied: a 100,000-contract shop stays small.
      pricingPolicy:
        plan.pricingPolicies.length > 0 ? { basePrice: v.price, cycleDiscounts: plan.pricingPolicies } : null,
    })
  }
  return { lines: out, firstTotal, recurringTotal }
}

/**
 * Generates one contract and queues its history (orders and billing attempts) in `history`,
 * which assigns chronological ids once every contract is known.
 */
export function generateContract(
  rng: Rng,
  shop: ShopState,
  h: History,
  input: {
    createdAt: number
    now: number
    customerIndex: number
    forcedStatus: ContractStatus | null
    plans: readonly PlanChoice[]
    variantsByGroup: Map<number, VariantRecord[]>
  },
): void {
  const { createdAt, now, customerIndex } = input
  const choice = rng.weighted(
    input.plans,
    input.plans.map((p) => p.groupTemplate.weight / p.groupTemplate.plans.length),
  )
  const t = choice.template
  const { past, next } = billingDates(createdAt, t, now)
  let status = input.forcedStatus ?? rng.weighted(statuses, statusWeights)
  if (status === 'FAILED' && past.length < 2) status = 'ACTIVE'
  const customer = shop.customers[customerIndex]!
  const payment = shop.paymentMethods[customerIndex]!
  const {
    lines: contractLines,
    firstTotal,
    recurringTotal,
  } = lines(rng, shop, choice, input.variantsByGroup.get(choice.group.id)!)
  const deliveryPrice = recurringTotal >= FREE_SHIPPING_FROM ? 0 : SHIPPING_FEE
  const plan = choice.group.sellingPlans.find((p) => p.name === t.name)!
  const contractIndex = shop.contracts.length

  // Cycles billed successfully (the checkout counts as cycle 1).
  let billed = past.length
  let nextBillingDate = next
  let updatedAt = past[past.length - 1]!
  let maxCycles: number | null = null
  let failedAt: number | null = null
  if (status === 'FAILED') {
    billed = rng.int(1, past.length - 1)
    failedAt = past[billed]!
    nextBillingDate = failedAt
  } else if (status !== 'ACTIVE') {
    billed = status === 'EXPIRED' ? Math.min(past.length, rng.int(2, 12)) : rng.int(1, past.length)
    const last = past[billed - 1]!
    const until = Math.min(billed < past.length ? past[billed]! : next, now)
    updatedAt = last + Math.floor((rng.next() * Math.max(0, until - last - 1000)) / 1000) * 1000
    if (status === 'EXPIRED') {
      maxCycles = billed
      updatedAt = last + 60_000
    }
    nextBillingDate = status === 'PAUSED' ? (billed < past.length ? past[billed]! : next) : last
  }

  const ordersBefore = h.orderTime.length
  h.queueOrder(past[0]!, contractIndex, firstTotal + deliveryPrice)
  const originPending = ordersBefore
  // One dunning story among healthy contracts: a failure followed by a successful retry.
  const dunningCycle = status === 'ACTIVE' && billed >= 3 && rng.chance(0.05) ? rng.int(1, billed - 1) : -1
  for (let k = 1; k < billed; k++) {
    let at = past[k]! + rng.int(0, 600) * 1000
    if (k === dunningCycle) {
      h.queueAttempt(at, contractIndex, -1, failure(rng, payment.instrument, now))
      at += 2 * DAY
    }
    const orderAt = at + rng.int(5, 40) * 1000
    const pending = h.queueOrder(orderAt, contractIndex, recurringTotal + deliveryPrice)
    h.queueAttempt(at, contractIndex, pending, -1)
  }
  if (failedAt !== null) {
    // The app's default dunning: up to 3 attempts, 7 days apart, while they are in the past.
    const code = failure(rng, payment.instrument, now)
    for (let r = 0; r < 3 && failedAt + r * 7 * DAY <= now; r++) {
      const at = failedAt + r * 7 * DAY + rng.int(0, 600) * 1000
      h.queueAttempt(at, contractIndex, -1, code)
      updatedAt = at + 30_000
    }
  }

  const address = customer.defaultAddress!
  const customAttributes: ContractRecord['customAttributes'] = []
  if (rng.chance(0.15))
    customAttributes.push({ key: DELIVERY_TIME_ATTRIBUTE, value: deliveryTimeLabel(rng.pick(timeSlots)) })
  if (rng.chance(0.05)) customAttributes.push({ key: 'ギフト包装', value: '希望する' })
  const billingPolicy = {
    interval: t.interval,
    intervalCount: t.intervalCount,
    minCycles: null,
    maxCycles,
    anchors: plan.billingPolicy.anchors,
  }
  shop.contracts.push({
    id: nextId(shop, 'SubscriptionContract'),
    status,
    createdAt,
    updatedAt: Math.min(Math.max(updatedAt, createdAt), now),
    nextBillingDate,
    currencyCode: shop.info.currencyCode,
    note: rng.chance(0.05) ? rng.pick(notes) : null,
    lastPaymentStatus: failedAt !== null ? 'FAILED' : billed > 1 ? 'SUCCEEDED' : null,
    revisionId: Math.floor(updatedAt / 1000),
    customerId: customer.id,
    paymentMethodId: payment.id,
    originOrderId: originPending,
    billingPolicy,
    deliveryPolicy: {
      interval: t.interval,
      intervalCount: t.intervalCount,
      anchors: plan.deliveryPolicy.anchors,
    },
    deliveryPrice,
    customAttributes,
    deliveryMethod: {
      __typename: 'SubscriptionDeliveryMethodShipping',
      address: {
        address1: address.address1,
        address2: address.address2,
        city: address.city,
        company: null,
        country: address.country,
        countryCode: 'JP',
        firstName: address.firstName,
        lastName: address.lastName,
        name: address.name,
        phone: address.phone,
        province: address.province,
        provinceCode: address.provinceCode,
        zip: address.zip,
      },
      shippingOption: {
        title: '通常配送',
        presentmentTitle: '通常配送',
        description: null,
        code: 'standard',
      },
    },
    lines: contractLines,
    orderIds: [],
    billingAttemptIds: [],
  })
}
