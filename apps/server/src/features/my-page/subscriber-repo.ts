import { type DbClient, queryRows } from '../../db/pool.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'

/** What the rules read of one of this customer's contracts (domain SubscriberContractState). */
export type RuleRow = {
  status: string
  next_billing_date: Date | null
  created_at: Date
  billing_policy: { interval: string; intervalCount: number; minCycles?: number | null } | null
  orders_so_far: number
}

/** The contract, only if it is this customer's of this shop: null otherwise (another's reads as absent). */
export async function findCustomerContract(
  db: DbClient,
  shopId: string,
  customerId: string,
  contractId: string,
): Promise<RuleRow | null> {
  const rows = await queryRows<RuleRow>(
    db,
    `select c.status, c.next_billing_date, c.created_at, c.billing_policy, ${ORDER_COUNT_SQL} as orders_so_far
       from subscription_contracts c
      where c.shop_id = $1 and c.customer_id = $2 and c.id = $3`,
    [shopId, customerId, contractId],
  )
  return rows[0] ?? null
}

/** The tag that puts a customer in group 2 of the my-page variants (shops flagged two_customer_groups). */
export const GROUP_2_TAG = '顧客グループ2'

const VARIANT_TITLE = `coalesce(p.title, '') || case when v.title is null or v.title = 'Default Title' then ''
  else '（' || v.title || '）' end`

/** 「商品名（バリエーション）」 of a variant of the shop's catalogue; null when the shop has no such variant. */
export async function variantTitle(db: DbClient, shopId: string, variantId: string): Promise<string | null> {
  const rows = await queryRows<{ title: string }>(
    db,
    `select ${VARIANT_TITLE} as title from product_variants v
       left join products p on p.shop_id = v.shop_id and p.id = v.product_id
      where v.shop_id = $1 and v.id = $2::bigint`,
    [shopId, variantId],
  )
  return rows[0]?.title ?? null
}

/** The my-page variants of the shop, each with its customer group (1, or 2 on flagged shops). */
export function targetVariants(db: DbClient, shopId: string) {
  return queryRows<{ variant_id: string; title: string; price: string | null; customer_group: number }>(
    db,
    `select t.variant_id::text, ${VARIANT_TITLE} as title, v.price::text as price, t.customer_group
       from my_page_target_variants t
       join product_variants v on v.shop_id = t.shop_id and v.id = t.variant_id
       left join products p on p.shop_id = v.shop_id and p.id = v.product_id
      where t.shop_id = $1
      order by t.created_at, t.variant_id`,
    [shopId],
  )
}

/** Whether the customer is in group 2 of the my-page variants (tagged 顧客グループ2). */
export async function inGroup2(db: DbClient, shopId: string, customerId: string): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from customers where shop_id = $1 and id = $2 and $3 = any(tags)',
    [shopId, customerId, GROUP_2_TAG],
  )
  return rows.length > 0
}

export type TargetVariant = { variant_id: string; title: string; price: string | null }

/** The variants this customer may switch to: their group's list (group 2 by tag on flagged shops). */
export async function swapVariantsFor(
  db: DbClient,
  shopId: string,
  customerId: string,
  twoGroups: boolean,
): Promise<TargetVariant[]> {
  const [all, group2] = await Promise.all([
    targetVariants(db, shopId),
    twoGroups ? inGroup2(db, shopId, customerId) : Promise.resolve(false),
  ])
  const group = group2 ? 2 : 1
  return all.filter((v) => v.customer_group === group)
}
