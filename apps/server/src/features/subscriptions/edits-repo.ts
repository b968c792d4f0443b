import type { DbClient } from '../../db/pool.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'

// The contract edits' own reads and writes of the mirror (the contract itself is written by
// the edit flow, from the platform's answer).

/** The variant's price in the mirror ('0' when it has none); undefined when the shop has no such variant. */
export async function findVariantPrice(db: DbClient, shopId: string, variantId: string) {
  const { rows } = await db.query<{ price: string | null }>(
    'select price::text from product_variants where shop_id = $1 and id = $2',
    [shopId, variantId],
  )
  const row = rows[0]
  return row ? (row.price ?? '0') : undefined
}

export type OrderCountRow = { count: number; order_count_set: number | null; order_count_set_at: Date | null }

export async function findOrderCount(db: DbClient, shopId: string, contractId: string) {
  const { rows } = await db.query<OrderCountRow>(
    `select ${ORDER_COUNT_SQL} as count, c.order_count_set, c.order_count_set_at
     from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  return rows[0]
}

/** The merchant's correction of the order count; the count it replaces, undefined when the contract is not mirrored. */
export async function setOrderCountCorrection(
  db: DbClient,
  shopId: string,
  contractId: string,
  count: number,
) {
  const { rows } = await db.query<{ previous: number }>(
    `with previous as (select ${ORDER_COUNT_SQL} as previous from subscription_contracts c
       where c.shop_id = $1 and c.id = $2 for update)
     update subscription_contracts c set order_count_set = $3, order_count_set_at = now()
     from previous where c.shop_id = $1 and c.id = $2
     returning previous.previous`,
    [shopId, contractId, count],
  )
  return rows[0]?.previous
}

export async function findDeliveryFields(db: DbClient, shopId: string, contractId: string) {
  const { rows } = await db.query<{
    custom_attributes: Array<{ key: string; value: string | null }>
    next_billing_date: Date | null
  }>(
    'select custom_attributes, next_billing_date from subscription_contracts where shop_id = $1 and id = $2',
    [shopId, contractId],
  )
  return rows[0]
}

/** From now on the contract's prices are the merchant's: billing never reprices it. */
export async function markPricesManual(db: DbClient, shopId: string, contractId: string): Promise<void> {
  await db.query(
    'update subscription_contracts set price_manually_changed_at = now() where shop_id = $1 and id = $2',
    [shopId, contractId],
  )
}

/** True when the merchant set the contract's prices by hand (a batch swap then keeps them). */
export async function isPriceManual(db: DbClient, shopId: string, contractId: string): Promise<boolean> {
  const { rows } = await db.query<{ manual: boolean }>(
    `select price_manually_changed_at is not null as manual
     from subscription_contracts where shop_id = $1 and id = $2`,
    [shopId, contractId],
  )
  return rows[0]?.manual ?? false
}
