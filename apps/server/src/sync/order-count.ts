import type { DbClient } from '../db/pool.ts'

/**
 * A contract's order count as SQL over `subscription_contracts c`: the orders the mirror holds
 * for it (cancelled ones do not count), or, once the merchant corrected the count, the value
 * they set plus the orders created since. Uses orders_contract_idx (shop, contract, created_at).
 *
 * The checkout's order (`origin_order_id`) counts even when the mirror does not hold it linked
 * to this contract: its orders/create is read a few seconds after the contract's own webhook
 * (features/webhooks/deferred.ts), and one order that bought on two plans made two contracts
 * but is linked to one of them. Without it, a contract just sold shows 0 orders and its next
 * charge is priced as cycle 1 (the first-order discount again). A cancelled origin order held
 * in the mirror does not count; a count the merchant set already includes it. One primary-key
 * probe of `orders` per contract.
 */
export const ORDER_COUNT_SQL = `(coalesce(c.order_count_set, 0) + (
  select count(*) from orders o
  where o.shop_id = c.shop_id and o.contract_id = c.id and o.cancelled_at is null
    and (c.order_count_set_at is null or o.created_at > c.order_count_set_at)
) + (
  case when c.origin_order_id is not null and c.order_count_set_at is null and not exists (
    select 1 from orders o where o.shop_id = c.shop_id and o.id = c.origin_order_id
      and (o.contract_id = c.id or o.cancelled_at is not null)
  ) then 1 else 0 end
))::int`

/** The contract's order count (its orders mirrored so far, or the merchant's correction). */
export async function contractOrderCount(db: DbClient, shopId: string, contractId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `select ${ORDER_COUNT_SQL} as count from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  return rows[0]?.count ?? 0
}
