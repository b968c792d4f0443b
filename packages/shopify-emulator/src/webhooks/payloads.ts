import { formatDateTime } from '../format.ts'
import { toGid } from '../gid.ts'
import type {
  AppSubscriptionRecord,
  BillingAttemptRecord,
  ContractRecord,
  CustomerRecord,
  OrderRecord,
  RefundRecord,
  SellingPlanGroupRecord,
  ShopState,
} from '../records.ts'
import { financialStatus, refundedOf } from '../refunds.ts'

/**
 * Webhook bodies in the platform's REST shape: snake_case keys, numeric ids next to their
 * `admin_graphql_api_*` GIDs, lower-case enums, ISO times with the shop's offset dropped (UTC).
 */
type Payload = Record<string, unknown>

const policy = (p: {
  interval: string
  intervalCount: number
  minCycles?: number | null
  maxCycles?: number | null
}) => ({
  interval: p.interval.toLowerCase(),
  interval_count: p.intervalCount,
  ...('minCycles' in p ? { min_cycles: p.minCycles ?? null, max_cycles: p.maxCycles ?? null } : {}),
})

export function contractPayload(c: ContractRecord): Payload {
  return {
    admin_graphql_api_id: toGid('SubscriptionContract', c.id),
    id: c.id,
    billing_policy: policy(c.billingPolicy),
    currency_code: c.currencyCode,
    customer_id: c.customerId,
    admin_graphql_api_customer_id: toGid('Customer', c.customerId),
    delivery_policy: policy({
      interval: c.deliveryPolicy.interval,
      intervalCount: c.deliveryPolicy.intervalCount,
    }),
    status: c.status.toLowerCase(),
    admin_graphql_api_origin_order_id: c.originOrderId === null ? null : toGid('Order', c.originOrderId),
    origin_order_id: c.originOrderId,
    revision_id: String(c.revisionId),
    created_at: formatDateTime(c.createdAt),
    updated_at: formatDateTime(c.updatedAt),
  }
}

export function billingAttemptPayload(a: BillingAttemptRecord, idempotencyKey: string): Payload {
  return {
    id: a.id,
    admin_graphql_api_id: toGid('SubscriptionBillingAttempt', a.id),
    idempotency_key: idempotencyKey,
    order_id: a.orderId,
    admin_graphql_api_order_id: a.orderId === null ? null : toGid('Order', a.orderId),
    subscription_contract_id: a.contractId,
    admin_graphql_api_subscription_contract_id: toGid('SubscriptionContract', a.contractId),
    ready: a.ready,
    error_message: a.errorMessage,
    error_code: a.errorCode?.toLowerCase() ?? null,
  }
}

export function sellingPlanGroupPayload(g: SellingPlanGroupRecord): Payload {
  return {
    admin_graphql_api_id: toGid('SellingPlanGroup', g.id),
    id: g.id,
    name: g.name,
    merchant_code: g.merchantCode,
    admin_graphql_api_app: null,
    app_id: null,
    description: g.description,
    options: g.options,
    position: g.position,
    summary: g.summary,
    selling_plans: g.sellingPlans.map((p) => ({
      name: p.name,
      options: p.options,
      position: p.position,
      description: p.description,
      billing_policy: policy(p.billingPolicy),
      delivery_policy: { ...policy(p.deliveryPolicy), cutoff: p.deliveryPolicy.cutoff },
      pricing_policies: p.pricingPolicies.map((pp) => ({
        adjustment_type: pp.adjustmentType.toLowerCase(),
        adjustment_value:
          pp.adjustmentValue.__typename === 'MoneyV2'
            ? pp.adjustmentValue.amount
            : pp.adjustmentValue.percentage,
      })),
    })),
    product_variants: [],
    products: g.productIds.map((id) => ({ id, admin_graphql_api_id: toGid('Product', id) })),
  }
}

export function orderPayload(shop: ShopState, o: OrderRecord, contract: ContractRecord | undefined): Payload {
  const total = o.totalPriceSet.toFixed(2)
  return {
    id: o.id,
    admin_graphql_api_id: toGid('Order', o.id),
    name: `#${o.number}`,
    order_number: o.number,
    created_at: formatDateTime(o.createdAt),
    updated_at: formatDateTime(o.updatedAt),
    currency: shop.info.currencyCode,
    total_price: total,
    current_total_price: (o.totalPriceSet - refundedOf(o, shop.info.currencyCode)).toFixed(2),
    financial_status: financialStatus(o, shop.info.currencyCode).toLowerCase(),
    cancelled_at: o.cancelledAt === null ? null : formatDateTime(o.cancelledAt),
    test: o.test,
    source_name: 'subscription_contract',
    note_attributes: (o.customAttributes ?? []).map((a) => ({ name: a.key, value: a.value })),
    customer:
      o.customerId === null
        ? null
        : { id: o.customerId, admin_graphql_api_id: toGid('Customer', o.customerId) },
    line_items: (contract?.lines ?? []).map((l, i) => ({
      id: o.id * 10 + i,
      admin_graphql_api_id: toGid('LineItem', o.id * 10 + i),
      title: l.title,
      variant_title: l.variantTitle,
      quantity: l.quantity,
      sku: l.sku,
      price: l.currentPrice.toFixed(2),
      product_id: l.productId,
      variant_id: l.variantId,
      selling_plan_allocation: l.sellingPlanId === null ? null : { selling_plan_id: l.sellingPlanId },
    })),
    refunds: (o.refunds ?? []).map((r) => ({
      id: r.id,
      admin_graphql_api_id: toGid('Refund', r.id),
      order_id: o.id,
      created_at: formatDateTime(r.createdAt),
      note: r.note,
    })),
  }
}

/**
 * refunds/create: the REST refund — its order by numeric id only (`order_id`), the money in its
 * `transactions` (one refund transaction here), the returned items in `refund_line_items`.
 */
export function refundPayload(
  shop: ShopState,
  r: RefundRecord,
  detail: {
    lineItems: Array<{ lineItemId: number; quantity: number; restockType: string }>
    gateway: string
  },
): Payload {
  const at = formatDateTime(r.createdAt)
  return {
    id: r.id,
    admin_graphql_api_id: toGid('Refund', r.id),
    order_id: r.orderId,
    created_at: at,
    processed_at: at,
    note: r.note,
    restock: detail.lineItems.some((l) => l.restockType !== 'NO_RESTOCK'),
    user_id: null,
    refund_line_items: detail.lineItems.map((l, i) => ({
      id: r.id * 10 + i,
      line_item_id: l.lineItemId,
      quantity: l.quantity,
      restock_type: l.restockType.toLowerCase(),
    })),
    transactions:
      r.amount > 0
        ? [
            {
              id: r.id,
              admin_graphql_api_id: toGid('OrderTransaction', r.id),
              order_id: r.orderId,
              kind: 'refund',
              status: 'success',
              gateway: detail.gateway,
              amount: r.amount.toFixed(2),
              currency: shop.info.currencyCode,
              created_at: at,
            },
          ]
        : [],
    order_adjustments: [],
  }
}

export function appUninstalledPayload(shop: ShopState): Payload {
  return {
    id: shop.info.id,
    name: shop.info.name,
    email: shop.info.email,
    domain: shop.info.primaryDomain.host,
    myshopify_domain: shop.info.myshopifyDomain,
    currency: shop.info.currencyCode,
    iana_timezone: shop.info.ianaTimezone,
    plan_display_name: shop.info.plan.displayName,
  }
}

type Priced = { amount: string; currencyCode: string }

/**
 * `app_subscriptions/update` (shopify.dev webhook reference): the subscription wrapped in
 * `app_subscription`, named by GID with the shop's GID beside it, its status upper case, the
 * recurring price and its interval (`every_30_days`), `capped_amount` only with usage pricing.
 * There is no root `id`: the body names the shop, and the app reads the subscription back.
 */
export function appSubscriptionPayload(shop: ShopState, sub: AppSubscriptionRecord): Payload {
  const details = sub.lineItems.map((item) => item.plan.pricingDetails)
  const recurring = details.find((d) => d.__typename === 'AppRecurringPricing')
  const usage = details.find((d) => d.__typename === 'AppUsagePricing')
  const price = recurring?.price as Priced | undefined
  const capped = usage?.cappedAmount as Priced | undefined
  return {
    app_subscription: {
      admin_graphql_api_id: toGid('AppSubscription', sub.id),
      name: sub.name,
      status: sub.status,
      admin_graphql_api_shop_id: toGid('Shop', shop.info.id),
      created_at: formatDateTime(sub.createdAt),
      updated_at: formatDateTime(sub.updatedAt ?? sub.createdAt),
      currency: (price ?? capped)?.currencyCode ?? shop.info.currencyCode,
      ...(capped ? { capped_amount: capped.amount } : {}),
      ...(price ? { price: Number(price.amount).toFixed(2) } : {}),
      interval: String((recurring ?? usage)?.interval ?? 'EVERY_30_DAYS').toLowerCase(),
      ...(recurring?.planHandle ? { plan_handle: recurring.planHandle } : {}),
    },
  }
}

/**
 * The compliance payloads (shopify.dev, "Privacy law compliance"): the shop by `shop_id` and
 * `shop_domain`, the customer by id, e-mail and phone, and the ids of the customer's orders.
 */
const complianceShop = (shop: ShopState) => ({
  shop_id: shop.info.id,
  shop_domain: shop.info.myshopifyDomain,
})

const complianceCustomer = (shop: ShopState, c: CustomerRecord) => ({
  ...complianceShop(shop),
  customer: { id: c.id, email: c.email, phone: c.phone },
})

const ordersOf = (shop: ShopState, c: CustomerRecord) =>
  shop.orders.filter((o) => o.customerId === c.id).map((o) => o.id)

export function customersRedactPayload(shop: ShopState, c: CustomerRecord): Payload {
  return { ...complianceCustomer(shop, c), orders_to_redact: ordersOf(shop, c) }
}

export function customersDataRequestPayload(shop: ShopState, c: CustomerRecord, requestId: number): Payload {
  return {
    ...complianceCustomer(shop, c),
    orders_requested: ordersOf(shop, c),
    data_request: { id: requestId },
  }
}

export function shopRedactPayload(shop: ShopState): Payload {
  return complianceShop(shop)
}

/** customers/create and customers/update: the customer as REST shows it (tags as one comma-separated text). */
export function customerPayload(c: CustomerRecord): Payload {
  return {
    id: c.id,
    admin_graphql_api_id: toGid('Customer', c.id),
    email: c.email,
    first_name: c.firstName,
    last_name: c.lastName,
    phone: c.phone,
    state: c.state.toLowerCase(),
    tags: c.tags.join(', '),
    created_at: formatDateTime(c.createdAt),
    updated_at: formatDateTime(c.updatedAt),
  }
}
