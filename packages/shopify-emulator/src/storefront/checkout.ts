import {
  DELIVERY_TIME_ATTRIBUTE,
  type DeliveryTimeSlot,
  deliveryTimeLabel,
  firstBillingDateAfterOrder,
  prefectureName,
} from '@teiki/domain'
import type { Context } from '../context.ts'
import { cyclePrice } from '../pricing.ts'
import type {
  ContractLineRecord,
  ContractRecord,
  CustomerRecord,
  DeliveryAddressRecord,
  OrderRecord,
  PaymentMethodRecord,
  SellingPlanGroupRecord,
  SellingPlanRecord,
} from '../records.ts'
import { findById, nextId } from '../store.ts'
import { contractPayload, customerPayload, orderPayload } from '../webhooks/payloads.ts'
import type { Cart, CartLine } from './cart.ts'
import { planAdjustments } from './drops.ts'

/**
 * The platform's checkout for a cart: the buyer (an existing customer by e-mail, else a new
 * one), the demo card as their payment method, one order for the cart, and one subscription
 * contract per selling plan bought, made the way the platform makes them: origin order, lines
 * with the plan's pricing policies at the first cycle's price, the plan's billing and delivery
 * policies, the next billing date from the plan's anchors and cutoff (the app's own rule in
 * @teiki/domain, ADR 0009: the emulator plays the platform the app was written against), then
 * `orders/create` and `subscription_contracts/create`.
 */

export type Buyer = {
  email: string
  lastName: string
  firstName: string
  phone: string | null
  zip: string
  provinceCode: string
  city: string
  address1: string
  address2: string | null
  /** 配送時間帯 chosen at checkout (the app's slot codes), null for none. */
  deliveryTime: Exclude<DeliveryTimeSlot, 'NONE'> | null
}

export type CheckoutResult = { order: OrderRecord; contracts: ContractRecord[]; customer: CustomerRecord }

/** Shipping as the demo shop charges it: free from ¥5,000 of goods. */
const FREE_SHIPPING_FROM = 5000
const SHIPPING_FEE = 550

function planOf(
  ctx: Context,
  planId: number,
): { group: SellingPlanGroupRecord; plan: SellingPlanRecord } | null {
  for (const group of ctx.shop.sellingPlanGroups) {
    const plan = group.sellingPlans.find((p) => p.id === planId)
    if (plan) return { group, plan }
  }
  return null
}

function addressOf(b: Buyer): DeliveryAddressRecord {
  return {
    address1: b.address1,
    address2: b.address2,
    city: b.city,
    company: null,
    country: 'Japan',
    countryCode: 'JP',
    firstName: b.firstName,
    lastName: b.lastName,
    name: `${b.lastName} ${b.firstName}`,
    phone: b.phone,
    province: prefectureName(b.provinceCode),
    provinceCode: b.provinceCode,
    zip: b.zip,
  }
}

function customerFor(ctx: Context, b: Buyer, at: number): CustomerRecord {
  const email = b.email.trim().toLowerCase()
  const known = ctx.shop.customers.find((c) => c.email?.toLowerCase() === email)
  if (known) return known
  const { name: _, country: __, countryCode, company: ___, ...address } = addressOf(b)
  const customer: CustomerRecord = {
    id: nextId(ctx.shop, 'Customer'),
    firstName: b.firstName,
    lastName: b.lastName,
    displayName: `${b.lastName} ${b.firstName}`,
    email,
    phone: b.phone,
    note: null,
    state: 'ENABLED',
    verifiedEmail: true,
    createdAt: at,
    updatedAt: at,
    numberOfOrders: 0,
    tags: [],
    defaultAddress: {
      id: nextId(ctx.shop, 'MailingAddress'),
      ...address,
      name: `${b.lastName} ${b.firstName}`,
      company: null,
      country: 'Japan',
      countryCodeV2: countryCode,
    },
  }
  ctx.shop.customers.push(customer)
  ctx.runtime.emit(ctx.shop, 'customers/create', customerPayload(customer))
  return customer
}

/** The demo card (4242…) as the customer's payment method: the one they paid with, kept for renewals. */
function demoCard(ctx: Context, customer: CustomerRecord, at: number): PaymentMethodRecord {
  const year = new Date(at).getUTCFullYear() + 3
  const pm: PaymentMethodRecord = {
    id: nextId(ctx.shop, 'CustomerPaymentMethod'),
    customerId: customer.id,
    instrument: {
      __typename: 'CustomerCreditCard',
      brand: 'visa',
      lastDigits: '4242',
      expiryMonth: 12,
      expiryYear: year,
      expiresSoon: false,
      isRevocable: true,
      name: `${customer.firstName} ${customer.lastName}`,
      maskedNumber: '•••• •••• •••• 4242',
    },
    revokedAt: null,
    revokedReason: null,
  }
  ctx.shop.paymentMethods.push(pm)
  return pm
}

/** The unit price of `line` at checkout: its plan's first price adjustment, or the variant's price. */
export function checkoutUnitPrice(ctx: Context, line: CartLine): number {
  const variant = findById(ctx.shop.variants, line.variantId)
  if (!variant) throw new Error(`unknown variant ${line.variantId}`)
  const found = line.sellingPlanId === null ? null : planOf(ctx, line.sellingPlanId)
  const first = found ? planAdjustments(found.plan.pricingPolicies)[0] : undefined
  return first?.policy ? cyclePrice(variant.price, first.policy, ctx.shop.info.currencyCode) : variant.price
}

function contractLine(ctx: Context, line: CartLine, plan: SellingPlanRecord): ContractLineRecord {
  const variant = findById(ctx.shop.variants, line.variantId)!
  const product = findById(ctx.shop.products, variant.productId)!
  return {
    id: nextId(ctx.shop, 'SubscriptionLine'),
    productId: product.id,
    variantId: variant.id,
    title: product.title,
    variantTitle: variant.title,
    quantity: line.quantity,
    sku: variant.sku,
    sellingPlanId: plan.id,
    sellingPlanName: plan.name,
    // The checkout leaves the first order's price on the line; the app reprices later cycles.
    currentPrice: checkoutUnitPrice(ctx, line),
    pricingPolicy:
      plan.pricingPolicies.length > 0
        ? { basePrice: variant.price, cycleDiscounts: plan.pricingPolicies }
        : null,
  }
}

/**
 * The contract's custom attributes from the checkout: the time slot as the app writes it when a
 * merchant sets it in 契約詳細 (key 配送時間帯, the slot's label 14時〜16時), so the app reads a
 * storefront contract's slot as its own.
 */
export function checkoutAttributes(b: Pick<Buyer, 'deliveryTime'>): ContractRecord['customAttributes'] {
  return b.deliveryTime ? [{ key: DELIVERY_TIME_ATTRIBUTE, value: deliveryTimeLabel(b.deliveryTime) }] : []
}

/**
 * The order's note attributes and the contracts' custom attributes: the cart's (the product
 * block's お届け予定日 and 配送時間帯), with a slot picked on this checkout page over the cart's.
 */
export function orderAttributesOf(cart: Pick<Cart, 'attributes'>, buyer: Pick<Buyer, 'deliveryTime'>) {
  const chosen = checkoutAttributes(buyer)
  const fromCart = Object.entries(cart.attributes)
    .filter(([key]) => !chosen.some((a) => a.key === key))
    .map(([key, value]) => ({ key, value }))
  return [...fromCart, ...chosen]
}

function newContract(
  ctx: Context,
  plan: SellingPlanRecord,
  lines: ContractLineRecord[],
  parties: {
    customer: CustomerRecord
    payment: PaymentMethodRecord
    address: DeliveryAddressRecord
    attributes: ContractRecord['customAttributes']
  },
  at: number,
): ContractRecord {
  const bp = plan.billingPolicy
  const next = firstBillingDateAfterOrder(
    new Date(at),
    {
      interval: bp.interval,
      intervalCount: bp.intervalCount,
      anchors: bp.anchors,
      cutoff: plan.deliveryPolicy.cutoff,
      preAnchorBehavior: plan.deliveryPolicy.preAnchorBehavior,
    },
    ctx.shop.info.ianaTimezone,
  )
  const goods = lines.reduce((sum, l) => sum + l.currentPrice * l.quantity, 0)
  return {
    id: nextId(ctx.shop, 'SubscriptionContract'),
    status: 'ACTIVE',
    createdAt: at,
    updatedAt: at,
    nextBillingDate: next.getTime(),
    currencyCode: ctx.shop.info.currencyCode,
    note: null,
    lastPaymentStatus: null,
    revisionId: Math.floor(at / 1000),
    customerId: parties.customer.id,
    paymentMethodId: parties.payment.id,
    originOrderId: null,
    billingPolicy: {
      interval: bp.interval,
      intervalCount: bp.intervalCount,
      minCycles: bp.minCycles,
      maxCycles: bp.maxCycles,
      anchors: bp.anchors,
    },
    deliveryPolicy: {
      interval: plan.deliveryPolicy.interval,
      intervalCount: plan.deliveryPolicy.intervalCount,
      anchors: plan.deliveryPolicy.anchors,
    },
    deliveryPrice: goods >= FREE_SHIPPING_FROM ? 0 : SHIPPING_FEE,
    customAttributes: parties.attributes.map((a) => ({ ...a })),
    deliveryMethod: {
      __typename: 'SubscriptionDeliveryMethodShipping',
      address: parties.address,
      shippingOption: {
        title: '通常配送',
        presentmentTitle: '通常配送',
        description: null,
        code: 'standard',
      },
    },
    lines,
    orderIds: [],
    billingAttemptIds: [],
  }
}

/**
 * Places the cart's order. Lines bought with a plan become contracts (one per plan); the order
 * records its first contract (an order's line items are read from its contract, so a cart
 * mixing plans or one-time items shows the first contract's lines on the order, while the
 * order's total covers the whole cart).
 */
export function placeOrder(ctx: Context, cart: Cart, buyer: Buyer): CheckoutResult {
  if (cart.lines.length === 0) throw new Error('the cart is empty')
  const at = Math.floor(ctx.now() / 1000) * 1000
  const customer = customerFor(ctx, buyer, at)
  const payment = demoCard(ctx, customer, at)
  const address = addressOf(buyer)
  const attributes = orderAttributesOf(cart, buyer)
  const byPlan = new Map<number, ContractLineRecord[]>()
  for (const line of cart.lines) {
    if (line.sellingPlanId === null) continue
    const found = planOf(ctx, line.sellingPlanId)
    if (!found) throw new Error(`unknown selling plan ${line.sellingPlanId}`)
    byPlan.set(found.plan.id, [...(byPlan.get(found.plan.id) ?? []), contractLine(ctx, line, found.plan)])
  }
  const contracts = [...byPlan].map(([planId, lines]) =>
    newContract(ctx, planOf(ctx, planId)!.plan, lines, { customer, payment, address, attributes }, at),
  )
  const goods = cart.lines.reduce((sum, l) => sum + checkoutUnitPrice(ctx, l) * l.quantity, 0)
  const shipping = contracts[0]?.deliveryPrice ?? (goods >= FREE_SHIPPING_FROM ? 0 : SHIPPING_FEE)
  const order: OrderRecord = {
    id: nextId(ctx.shop, 'Order'),
    number: (ctx.shop.orders.at(-1)?.number ?? 1000) + 1,
    createdAt: at,
    updatedAt: at,
    cancelledAt: null,
    test: true,
    customerId: customer.id,
    contractId: contracts[0]?.id ?? null,
    totalPriceSet: goods + shipping,
  }
  if (attributes.length > 0)
    order.customAttributes = attributes.map((a) => ({ key: a.key, value: a.value ?? '' }))
  ctx.shop.orders.push(order)
  customer.numberOfOrders++
  customer.updatedAt = at
  for (const c of contracts) {
    c.originOrderId = order.id
    c.orderIds = [order.id]
    ctx.shop.contracts.push(c)
  }
  ctx.store.changed()
  ctx.runtime.emit(ctx.shop, 'orders/create', orderPayload(ctx.shop, order, contracts[0]))
  for (const c of contracts) ctx.runtime.emit(ctx.shop, 'subscription_contracts/create', contractPayload(c))
  return { order, contracts, customer }
}
