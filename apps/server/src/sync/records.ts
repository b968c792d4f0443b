import { japaneseName } from '@teiki/domain'
import { idFromGid, maybeIdFromGid } from '../platform/gid.ts'
import type { PlatformContract } from '../platform/operations/contract-fragments.ts'
import type { PlatformCustomer } from '../platform/operations/customer-fragments.ts'
import type { PlatformOrder } from '../platform/operations/order-fragments.ts'
import type { PlatformProduct } from '../platform/operations/products-page.ts'
import type { PlatformSellingPlanGroup } from '../platform/operations/selling-plan-fragments.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import type { PlatformPagedContract } from '../platform/operations/subscription-contracts-page.ts'
import type { BillingAttemptRecord } from './billing-attempts-repo.ts'
import type { ContractRecord, LineRecord } from './contracts-repo.ts'
import type {
  CustomerRecord,
  OrderRecord,
  ProductRecord,
  SellingPlanGroupRecord,
  SellingPlanRecord,
  VariantRecord,
} from './mirror-repo.ts'
import { storableRow } from './mirror-text.ts'
import { nameKey, phoneRev } from './search-keys.ts'

// Platform objects (Admin API shapes) to mirror rows. Shared by the full sync, the bulk sync
// and the webhook handlers so every path writes the same columns the same way. Every row goes
// through `storableRow`: text PostgreSQL refuses (NUL, lone surrogates) is stripped and logged,
// so one hostile note never stops a shop's sync.

export function customerRecord(c: PlatformCustomer): CustomerRecord {
  const id = idFromGid(c.id)
  const row: CustomerRecord = {
    id,
    first_name: c.firstName,
    last_name: c.lastName,
    display_name: japaneseName(c),
    name_key: nameKey(`${c.lastName ?? ''}${c.firstName ?? ''}` || c.displayName),
    email: c.email,
    phone: c.phone,
    phone_rev: phoneRev(c.phone),
    default_address: c.defaultAddress,
    tags: c.tags ?? null,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  }
  return storableRow(row, { table: 'customers', id, contractId: null })
}

export function contractRecord(c: PlatformContract): ContractRecord {
  const id = idFromGid(c.id)
  const row: ContractRecord = {
    id,
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
  return storableRow(row, { table: 'subscription_contracts', id, contractId: id })
}

export function lineRecords(c: PlatformContract): LineRecord[] {
  const contractId = idFromGid(c.id)
  return c.lines.nodes.map((line, position) =>
    storableRow<LineRecord>(
      {
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
      },
      { table: 'subscription_lines', id: line.id, contractId },
    ),
  )
}

/**
 * An order as the mirror keeps it. `contractId`: the contract it was read through
 * (`SubscriptionContract.orders`), or null when it was read on its own (the link is unknown).
 */
export function orderRecord(
  o: Omit<PlatformOrder, 'customer'> & { customer?: PlatformOrder['customer'] },
  contractId: string | null,
): OrderRecord {
  const id = idFromGid(o.id)
  const row: OrderRecord = {
    id,
    name: o.name,
    contract_id: contractId,
    customer_id: maybeIdFromGid(o.customer?.id),
    total_amount: o.totalPriceSet.shopMoney.amount,
    refunded_amount: o.totalRefundedSet?.shopMoney.amount ?? null,
    currency_code: o.totalPriceSet.shopMoney.currencyCode,
    test: o.test,
    created_at: o.createdAt,
    cancelled_at: o.cancelledAt,
  }
  return storableRow(row, { table: 'orders', id, contractId })
}

/** The orders read with a contract (its nested `orders`), linked to it. */
export function contractOrderRecords(c: PlatformPagedContract): OrderRecord[] {
  const contractId = idFromGid(c.id)
  return c.orders.nodes.map((o) => orderRecord(o, contractId))
}

export function productRecord(p: PlatformProduct): ProductRecord {
  const id = idFromGid(p.id)
  const row: ProductRecord = {
    id,
    title: p.title,
    handle: p.handle,
    status: p.status,
    image_url: p.featuredImage?.url ?? null,
    updated_at: p.updatedAt,
  }
  return storableRow(row, { table: 'products', id, contractId: null })
}

export function variantRecords(p: PlatformProduct): VariantRecord[] {
  const productId = idFromGid(p.id)
  return p.variants.nodes.map((v) => {
    const id = idFromGid(v.id)
    const row: VariantRecord = { id, product_id: productId, title: v.title, sku: v.sku, price: v.price }
    return storableRow(row, { table: 'product_variants', id, contractId: null })
  })
}

export function sellingPlanGroupRecord(g: PlatformSellingPlanGroup): SellingPlanGroupRecord {
  const id = idFromGid(g.id)
  const row: SellingPlanGroupRecord = {
    id,
    name: g.name,
    merchant_code: g.merchantCode,
    products_count: g.productsCount?.count ?? 0,
    product_variants_count: g.productVariantsCount?.count ?? 0,
    created_at: g.createdAt,
  }
  return storableRow(row, { table: 'selling_plan_groups', id, contractId: null })
}

export function sellingPlanRecords(g: PlatformSellingPlanGroup): SellingPlanRecord[] {
  const groupId = idFromGid(g.id)
  return g.sellingPlans.nodes.map((p) => {
    const id = idFromGid(p.id)
    const row: SellingPlanRecord = {
      id,
      group_id: groupId,
      name: p.name,
      description: p.description,
      category: p.category,
      options: p.options,
      billing_policy: p.billingPolicy,
      delivery_policy: p.deliveryPolicy,
      pricing_policies: p.pricingPolicies,
    }
    return storableRow(row, { table: 'selling_plans', id, contractId: null })
  })
}

/**
 * A billing attempt as the mirror keeps it (`billing_attempts`), from any answer that carries
 * one: the create mutation, the attempt query, a poll. `contractId`: the contract it charges.
 */
export function billingAttemptRecord(a: CreatedBillingAttempt, contractId: string): BillingAttemptRecord {
  const id = idFromGid(a.id)
  const row: BillingAttemptRecord = {
    id,
    contract_id: contractId,
    idempotency_key: a.idempotencyKey,
    ready: a.ready,
    error_code: a.errorCode,
    error_message: a.errorMessage,
    order_id: maybeIdFromGid(a.order?.id),
    created_at: a.createdAt,
  }
  return storableRow(row, { table: 'billing_attempts', id, contractId })
}
