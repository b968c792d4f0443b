import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'
import type { LifetimeAmounts } from './segments-repo.ts'

export type CustomerProfileRow = {
  id: string
  display_name: string
  email: string | null
  phone: string | null
  default_address: Record<string, string | null> | null
  tags: string[]
  created_at: Date | null
  updated_at: Date | null
  order_count: number
  amounts: LifetimeAmounts | null
  first_order_at: Date | null
}

export function findCustomer(db: DbClient, shopId: string, id: string) {
  return queryRow<CustomerProfileRow>(
    db,
    `select cu.id::text, cu.display_name, cu.email, cu.phone, cu.default_address, cu.tags, cu.created_at,
       cu.updated_at, coalesce(t.order_count, 0) as order_count, t.amounts, t.first_order_at
     from customers cu left join customer_totals t on t.shop_id = cu.shop_id and t.customer_id = cu.id
     where cu.shop_id = $1 and cu.id = $2`,
    [shopId, id],
  )
}

export type CustomerContractRow = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  next_billing_date: Date | null
  order_count: number
  currency_code: string
  items: string | null
  created_at: Date
}

export function customerContracts(db: DbClient, shopId: string, customerId: string) {
  return queryRows<CustomerContractRow>(
    db,
    `select c.id::text, c.status, c.next_billing_date, ${ORDER_COUNT_SQL} as order_count, c.currency_code, c.created_at,
       (select string_agg(l.title || coalesce(' / ' || nullif(l.variant_title, ''), '') || ' × ' || l.quantity, ' | '
          order by l.position) from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id) as items
     from subscription_contracts c where c.shop_id = $1 and c.customer_id = $2
     order by c.created_at desc limit 100`,
    [shopId, customerId],
  )
}

export type CustomerOrderRow = {
  id: string
  name: string | null
  contract_id: string | null
  total_amount: string | null
  refunded_amount: string
  currency_code: string | null
  test: boolean
  cancelled_at: Date | null
  created_at: Date
}

export function customerOrders(db: DbClient, shopId: string, customerId: string) {
  return queryRows<CustomerOrderRow>(
    db,
    `select id::text, name, contract_id::text, total_amount::text, refunded_amount::text, currency_code, test,
       cancelled_at, created_at
     from orders where shop_id = $1 and customer_id = $2 order by created_at desc limit 50`,
    [shopId, customerId],
  )
}

/** Replaces the customer's tags with the platform's answer and records what changed, in `db` (a transaction). */
export async function writeCustomerTags(
  db: DbClient,
  shopId: string,
  customerId: string,
  tags: string[],
  updatedAt: string,
  change: { action: 'added' | 'removed'; tags: string[]; source: 'app' | 'segment' },
): Promise<void> {
  await db.query(
    `update customers set tags = $3, updated_at = greatest(updated_at, $4::timestamptz)
     where shop_id = $1 and id = $2`,
    [shopId, customerId, tags, updatedAt],
  )
  if (change.tags.length > 0) {
    await db.query(
      `insert into customer_tag_events (shop_id, customer_id, action, tags, source) values ($1, $2, $3, $4, $5)`,
      [shopId, customerId, change.action, change.tags, change.source],
    )
  }
}

export type LogRow = {
  at: Date
  kind: 'contract' | 'billing' | 'mail' | 'tag'
  type: string
  contract_id: string | null
  payload: Record<string, unknown>
  /** contract_events.source of a contract entry (app, webhook, sync, billing); null for the rest. */
  source: string | null
}

/**
 * The customer's history, newest first: their contracts' events, billing attempts, the mails
 * sent to their address and their tag changes (each source bounded before the merge).
 */
export function customerLog(db: DbClient, shopId: string, customerId: string, limit: number) {
  return queryRows<LogRow>(
    db,
    `with mine as (select id from subscription_contracts where shop_id = $1 and customer_id = $2),
     addr as (select lower(email) as email from customers where shop_id = $1 and id = $2 and email is not null)
     select * from (
       (select e.occurred_at as at, 'contract' as kind, e.type, e.contract_id::text, e.payload, e.source
        from contract_events e where e.shop_id = $1 and e.contract_id in (select id from mine)
        order by e.occurred_at desc limit $3)
       union all
       (select b.created_at, 'billing', case when b.order_id is not null then 'success'
          when b.error_code is not null then 'failure' else 'pending' end, b.contract_id::text,
          jsonb_build_object('errorMessage', b.error_message, 'orderId', b.order_id::text), null
        from billing_attempts b where b.shop_id = $1 and b.contract_id in (select id from mine)
        order by b.created_at desc limit $3)
       union all
       (select coalesce(m.sent_at, m.created_at), 'mail', m.status, null, jsonb_build_object('subject', m.subject), null
        from mail_outbox m where m.shop_id = $1 and lower(m.to_address) in (select email from addr)
        order by m.created_at desc limit $3)
       union all
       (select t.occurred_at, 'tag', t.action, null, jsonb_build_object('tags', t.tags, 'source', t.source), null
        from customer_tag_events t where t.shop_id = $1 and t.customer_id = $2
        order by t.occurred_at desc limit $3)
     ) log order by at desc limit $3`,
    [shopId, customerId, limit],
  )
}
