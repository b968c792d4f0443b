import { type DbClient, queryRows } from '../../db/pool.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'

export type SubscriberContractRow = {
  id: string
  status: string
  next_billing_date: Date | null
  currency_code: string
  custom_attributes: Array<{ key: string; value: string }>
  delivery_method: { address?: Record<string, string | null> | null } | null
  payment_method: { instrument?: { brand?: string; lastDigits?: string } | null } | null
  created_at: Date
  billing_policy: { interval: string; intervalCount: number; minCycles?: number | null } | null
  orders_so_far: number
  lines: Array<{
    id: string
    title: string
    variant_title: string | null
    quantity: number
    current_price: string | null
    selling_plan_name: string | null
  }>
  orders: Array<{ name: string | null; created_at: string; total_amount: string | null }>
}

/**
 * One customer's contracts of one shop, newest first, with their lines and latest 5 orders: the
 * shop and the customer both bound, so no other customer's row can be read whatever is asked.
 */
export function contractsOfCustomer(
  db: DbClient,
  shopId: string,
  customerId: string,
  contractId: string | null = null,
) {
  return queryRows<SubscriberContractRow>(
    db,
    `select c.id::text, c.status, c.next_billing_date, c.currency_code, c.custom_attributes,
            c.delivery_method, c.payment_method, c.created_at, c.billing_policy,
            ${ORDER_COUNT_SQL} as orders_so_far,
            coalesce((select json_agg(json_build_object('id', l.id, 'title', l.title, 'variant_title', l.variant_title,
                        'quantity', l.quantity, 'current_price', l.current_price::text,
                        'selling_plan_name', l.selling_plan_name) order by l.position, l.id)
                      from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id), '[]') as lines,
            coalesce((select json_agg(o order by o.created_at desc) from (
                        select o.name, o.created_at, o.total_amount::text as total_amount from orders o
                        where o.shop_id = c.shop_id and o.contract_id = c.id and o.cancelled_at is null
                        order by o.created_at desc limit 5) o), '[]') as orders
       from subscription_contracts c
      where c.shop_id = $1 and c.customer_id = $2 and ($3::bigint is null or c.id = $3)
      order by c.created_at desc, c.id desc`,
    [shopId, customerId, contractId],
  )
}
