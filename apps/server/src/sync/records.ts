import { japaneseName } from '@teiki/domain'
import { nameKey, phoneRev } from '../features/customers/search-keys.ts'
import type { BillingAttemptRecord } from '../features/webhooks/repo.ts'
import { idFromGid, maybeIdFromGid } from '../platform/gid.ts'
import type { PlatformCustomer } from '../platform/operations/customers-page.ts'
import type { PlatformSellingPlanGroup } from '../platform/operations/selling-plan-groups-page.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import type {
  PlatformContract,
  PlatformOrder,
  PlatformPagedContract,
} from '../platform/operations/subscription-contracts-page.ts'
import type { ContractRecord, LineRecord } from './contracts-repo.ts'
import type { CustomerRecord, OrderRecord, SellingPlanGroupRecord, SellingPlanRecord } from './mirror-repo.ts'

// Platform objects (Admin API shapes) to mirror rows. Shared by the full sync, the bulk sync
// and the webhook handlers so every path writes the same columns the same way.

export function customerRecord(c: PlatformCustomer): CustomerRecord {
  return {
    id: idFromGid(c.id),
    first_name: c.firstName,
    last_name: c.lastName,
    display_name: japaneseName(c),
    name_key: nameKey(`${c.lastName ?? ''}${c.firstName ?? ''}` || c.displayName),
    email: c.email,
    phone: c.phone,
    phone_rev: phoneRev(c.phone),
    default_address: c.defaultAddress,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }
}

export function contractRecord(c: PlatformContract): ContractRecord {
  return {
    id: idFromGid(c.id),
    status: c.status,
    customer_id: c.customer ? idFromGid(c.customer.id) : '0',
    next_billing_date: c.nextBillingDate,
    currency_code: c.currencyCode,
    interval: c.billingPolicy?.interval ?? null,
    interval_count: c.billingPolicy?.intervalCount ?? null,
    billing_policy: c.billingPolicy,
    delivery_policy: c.deliveryPolicy,
    delivery_price: c.deliveryPrice?.amount ?? null,
    delivery_method: c.deliveryMethod,
    payment_method: c.customerPaymentMethod,
    custom_attributes: c.customAttributes,
    note: c.note,
    last_payment_status: c.lastPaymentStatus,
    origin_order_id: maybeIdFromGid(c.originOrder?.id),
    revision_id: c.revisionId,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }
}

export function lineRecords(c: PlatformContract): LineRecord[] {
  const contractId = idFromGid(c.id)
  return c.lines.nodes.map((line, position) => ({
    contract_id: contractId,
    id: line.id,
    product_id: maybeIdFromGid(line.productId),
    variant_id: maybeIdFromGid(line.variantId),
    title: line.title,
    variant_title: line.variantTitle,
    sku: line.sku,
    quantity: line.quantity,
    selling_plan_id: maybeIdFromGid(line.sellingPlanId),
    selling_plan_name: line.sellingPlanName,
    current_price: line.currentPrice.amount,
    variant_image_url: line.variantImage?.url ?? null,
    position,
  }))
}

/**
 * An order as the mirror keeps it. `contractId`: the contract it was read through
 * (`SubscriptionContract.orders`), or null when it was read on its own (the link is unknown).
 */
export function orderRecord(o: PlatformOrder, contractId: string | null): OrderRecord {
  return {
    id: idFromGid(o.id),
    name: o.name,
    contract_id: contractId,
    customer_id: maybeIdFromGid(o.customer?.id),
    total_amount: o.totalPriceSet.shopMoney.amount,
    currency_code: o.totalPriceSet.shopMoney.currencyCode,
    test: o.test,
    created_at: o.createdAt,
    cancelled_at: o.cancelledAt,
  }
}

/** The orders read with a contract (its nested `orders`), linked to it. */
export function contractOrderRecords(c: PlatformPagedContract): OrderRecord[] {
  const contractId = idFromGid(c.id)
  return c.orders.nodes.map((o) => orderRecord(o, contractId))
}

export function sellingPlanGroupRecord(g: PlatformSellingPlanGroup): SellingPlanGroupRecord {
  return {
    id: idFromGid(g.id),
    name: g.name,
    merchant_code: g.merchantCode,
    products_count: g.productsCount?.count ?? 0,
    product_variants_count: g.productVariantsCount?.count ?? 0,
    created_at: g.createdAt,
  }
}

export function sellingPlanRecords(g: PlatformSellingPlanGroup): SellingPlanRecord[] {
  const groupId = idFromGid(g.id)
  return g.sellingPlans.nodes.map((p) => ({
    id: idFromGid(p.id),
    group_id: groupId,
    name: p.name,
    description: p.description,
    category: p.category,
    options: p.options,
    billing_policy: p.billingPolicy,
    delivery_policy: p.deliveryPolicy,
    pricing_policies: p.pricingPolicies,
  }))
}

/**
 * A billing attempt as the mirror keeps it (`billing_attempts`), from any answer that carries
 * one: the create mutation, the attempt query, a poll. `contractId`: the contract it charges.
 */
export function billingAttemptRecord(a: CreatedBillingAttempt, contractId: string): BillingAttemptRecord {
  return {
    id: idFromGid(a.id),
    contract_id: contractId,
    idempotency_key: a.idempotencyKey,
    ready: a.ready,
    error_code: a.errorCode,
    error_message: a.errorMessage,
    order_id: maybeIdFromGid(a.order?.id),
    created_at: a.createdAt,
  }
}
