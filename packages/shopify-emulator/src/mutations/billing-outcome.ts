import { randomBytes } from 'node:crypto'
import type { Context } from '../context.ts'
import { BILLING_ERROR_MESSAGES } from '../faults.ts'
import { allocateDiscounts } from '../pricing.ts'
import type { BillingAttemptRecord, ContractRecord, OrderRecord } from '../records.ts'
import { findById, nextId } from '../store.ts'
import { billingAttemptPayload, orderPayload } from '../webhooks/payloads.ts'

/** Why this charge fails, if it does: the knobs first, then an expired card, then stock. */
function failureCode(ctx: Context, c: ContractRecord): string | null {
  const shop = ctx.shop.info.myshopifyDomain
  const pm = c.paymentMethodId === null ? undefined : findById(ctx.shop.paymentMethods, c.paymentMethodId)
  if (!pm || pm.revokedAt !== null) return 'PAYMENT_METHOD_NOT_FOUND'
  const forced = ctx.runtime.faults.paymentFailure(shop, c.customerId, pm.id)
  if (forced) return forced
  const card = pm.instrument
  if (card.__typename === 'CustomerCreditCard') {
    const d = new Date(ctx.now())
    const year = d.getUTCFullYear()
    if (card.expiryYear < year || (card.expiryYear === year && card.expiryMonth < d.getUTCMonth() + 1))
      return 'EXPIRED_PAYMENT_METHOD'
  }
  if (c.lines.some((l) => ctx.runtime.faults.isOutOfStock(shop, l.variantId))) return 'INSUFFICIENT_INVENTORY'
  return null
}

/**
 * Lines plus delivery, less the contract's discounts as they split over the lines
 * (`allocateDiscounts`: a discount past its recurringCycleLimit no longer applies, as on the
 * platform, and no line goes below 0). JPY has no minor unit.
 */
export function contractTotal(c: ContractRecord): number {
  const subtotal = c.lines.reduce((sum, l) => sum + l.currentPrice * l.quantity, 0)
  let discount = 0
  for (const shares of allocateDiscounts(c.lines, c.discounts ?? [], c.currencyCode).values())
    for (const share of shares) discount += share.amount
  return Math.max(0, subtotal - discount) + c.deliveryPrice
}

function createOrder(ctx: Context, c: ContractRecord, now: number): OrderRecord {
  const last = ctx.shop.orders.at(-1)
  const order: OrderRecord = {
    id: nextId(ctx.shop, 'Order'),
    number: (last?.number ?? 1000) + 1,
    createdAt: now,
    updatedAt: now,
    cancelledAt: null,
    test: true,
    customerId: c.customerId,
    contractId: c.id,
    totalPriceSet: contractTotal(c),
  }
  // The order carries the contract's custom attributes as its note attributes.
  const attributes = c.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' }))
  if (attributes.length > 0) order.customAttributes = attributes
  ctx.shop.orders.push(order)
  c.orderIds = [...c.orderIds, order.id]
  c.discounts = c.discounts?.map((d) => ({ ...d, usageCount: d.usageCount + 1 }))
  const customer = findById(ctx.shop.customers, c.customerId)
  if (customer) customer.numberOfOrders++
  return order
}

const keyOf = (a: BillingAttemptRecord) => a.idempotencyKey ?? `teiki-${a.contractId}-${a.id}`

/** The attempt failed with `code`: the failure webhook. */
export function failAttempt(
  ctx: Context,
  c: ContractRecord,
  attempt: BillingAttemptRecord,
  code: string,
): void {
  attempt.ready = true
  attempt.completedAt = Math.floor(ctx.now() / 1000) * 1000
  attempt.errorCode = code
  attempt.errorMessage = BILLING_ERROR_MESSAGES[code] ?? code
  c.lastPaymentStatus = 'FAILED'
  ctx.store.changed()
  ctx.runtime.emit(
    ctx.shop,
    'subscription_billing_attempts/failure',
    billingAttemptPayload(attempt, keyOf(attempt)),
  )
}

/** The attempt succeeded: its order, then `orders/create` and the success webhook. */
export function succeedAttempt(ctx: Context, c: ContractRecord, attempt: BillingAttemptRecord): void {
  const now = Math.floor(ctx.now() / 1000) * 1000
  attempt.ready = true
  attempt.completedAt = now
  const order = createOrder(ctx, c, now)
  attempt.orderId = order.id
  c.lastPaymentStatus = 'SUCCEEDED'
  ctx.store.changed()
  ctx.runtime.emit(ctx.shop, 'orders/create', orderPayload(ctx.shop, order, c))
  ctx.runtime.emit(
    ctx.shop,
    'subscription_billing_attempts/success',
    billingAttemptPayload(attempt, keyOf(attempt)),
  )
}

/** Whether the issuer challenges this charge: a card that requires 3-D Secure, or the knob. */
function isChallenged(ctx: Context, c: ContractRecord): boolean {
  const pm = c.paymentMethodId === null ? undefined : findById(ctx.shop.paymentMethods, c.paymentMethodId)
  if (pm?.requiresAuthentication) return true
  return ctx.runtime.faults.isChallenged(ctx.shop.info.myshopifyDomain, c.customerId, pm?.id ?? null)
}

/**
 * The issuer asks for 3-D Secure: the attempt is done processing (`ready`) with neither an order
 * nor an error, and `nextActionUrl` is where the customer authenticates (an emulator page, see
 * billing-challenge.ts). The challenged webhook goes out now, as the topic's description says
 * ("occurs when the financial institution challenges the ... charge"); the order or the failure
 * follows when the customer completes or fails the challenge.
 */
function challengeAttempt(ctx: Context, attempt: BillingAttemptRecord): void {
  const token = randomBytes(16).toString('hex')
  const shop = encodeURIComponent(ctx.shop.info.myshopifyDomain)
  attempt.ready = true
  attempt.challengeToken = token
  attempt.nextActionUrl = `${ctx.runtime.baseUrl()}${CHALLENGE_PATH}/${shop}/${attempt.id}/${token}`
  ctx.store.changed()
  ctx.runtime.emit(
    ctx.shop,
    'subscription_billing_attempts/challenged',
    billingAttemptPayload(attempt, keyOf(attempt)),
  )
}

/** Where the customer page of a challenge lives: `<path>/<shop>/<attempt id>/<token>`. */
export const CHALLENGE_PATH = '/emulator/3ds'

/**
 * Settles an attempt the way the platform does later: an error code, a 3-D Secure challenge
 * (a declined or expired card fails before the issuer is asked to authenticate), or an order.
 */
export function settleAttempt(ctx: Context, attempt: BillingAttemptRecord): void {
  const c = findById(ctx.shop.contracts, attempt.contractId)
  if (!c || attempt.ready) return
  const code = failureCode(ctx, c)
  if (code) failAttempt(ctx, c, attempt, code)
  else if (isChallenged(ctx, c)) challengeAttempt(ctx, attempt)
  else succeedAttempt(ctx, c, attempt)
}
