import { type DbClient, queryRows } from '../../db/pool.ts'

// shop_settings.thank_page_script: the サンクスページ settings as the API carries them
// (JSON-encoded text; migration 0041 moved old scripts into its legacyScript).

export async function findThankYouText(db: DbClient, shopId: string): Promise<string> {
  const { rows } = await db.query<{ thank_page_script: string }>(
    'select thank_page_script from shop_settings where shop_id = $1',
    [shopId],
  )
  return rows[0]?.thank_page_script ?? '""'
}

export async function saveThankYouText(db: DbClient, shopId: string, text: string): Promise<void> {
  await db.query(
    `insert into shop_settings (shop_id, thank_page_script) values ($1, $2)
     on conflict (shop_id) do update set thank_page_script = excluded.thank_page_script, updated_at = now()`,
    [shopId, text],
  )
}

export type OrderContractRow = {
  id: string
  next_billing_date: Date | null
  status: string
  custom_attributes: Array<{ key: string; value: string }>
  plan_names: string | null
}

/** The contracts an order started (the platform's originOrder), with their lines' plan names. */
export function contractsOfOrder(db: DbClient, shopId: string, orderId: string) {
  return queryRows<OrderContractRow>(
    db,
    `select c.id::text, c.next_billing_date, c.status, c.custom_attributes,
            (select string_agg(distinct l.selling_plan_name, '・')
               from subscription_lines l
              where l.shop_id = c.shop_id and l.contract_id = c.id and l.selling_plan_name is not null) as plan_names
       from subscription_contracts c
      where c.shop_id = $1 and c.origin_order_id = $2
      order by c.id`,
    [shopId, orderId],
  )
}
