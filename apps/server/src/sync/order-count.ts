/**
 * A contract's order count as SQL over `subscription_contracts c`: the orders the mirror holds
 * for it (cancelled ones do not count), or, once the merchant corrected the count, the value
 * they set plus the orders created since. Uses orders_contract_idx (shop, contract, created_at).
 */
export const ORDER_COUNT_SQL = `(coalesce(c.order_count_set, 0) + (
  select count(*) from orders o
  where o.shop_id = c.shop_id and o.contract_id = c.id and o.cancelled_at is null
    and (c.order_count_set_at is null or o.created_at > c.order_count_set_at)
))::int`
