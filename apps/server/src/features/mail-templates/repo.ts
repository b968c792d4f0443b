import { deliveryDateOf, type MailLine, type MailTemplate, type MailTemplateType } from '@teiki/domain'
import { type DbClient, queryRow, queryRows } from '../../db/pool.ts'

/** The shop's saved template of this mail; null while it uses the default. */
export function findTemplate(db: DbClient, shopId: string, type: MailTemplateType) {
  return queryRow<MailTemplate>(
    db,
    'select title, body, signature from mail_templates where shop_id = $1 and type = $2',
    [shopId, type],
  )
}

export async function listSavedTemplates(
  db: DbClient,
  shopId: string,
): Promise<Map<MailTemplateType, MailTemplate>> {
  const { rows } = await db.query<MailTemplate & { type: MailTemplateType }>(
    'select type, title, body, signature from mail_templates where shop_id = $1',
    [shopId],
  )
  return new Map(rows.map(({ type, ...t }) => [type, t]))
}

export async function saveTemplate(
  db: DbClient,
  shopId: string,
  type: MailTemplateType,
  t: MailTemplate,
): Promise<void> {
  await db.query(
    `insert into mail_templates (shop_id, type, title, body, signature) values ($1, $2, $3, $4, $5)
     on conflict (shop_id, type) do update set title = excluded.title, body = excluded.body,
       signature = excluded.signature, updated_at = now()`,
    [shopId, type, t.title, t.body, t.signature],
  )
}

export async function deleteTemplate(db: DbClient, shopId: string, type: MailTemplateType): Promise<void> {
  await db.query('delete from mail_templates where shop_id = $1 and type = $2', [shopId, type])
}

/** The shop's own address (custom shop mail); null when unset. */
export async function findShopMail(db: DbClient, shopId: string): Promise<string | null> {
  const { rows } = await db.query<{ shop_mail: string | null }>(
    'select shop_mail from shop_settings where shop_id = $1',
    [shopId],
  )
  return rows[0]?.shop_mail ?? null
}

export async function saveShopMail(db: DbClient, shopId: string, shopMail: string | null): Promise<void> {
  await db.query(
    `insert into shop_settings (shop_id, shop_mail) values ($1, $2)
     on conflict (shop_id) do update set shop_mail = excluded.shop_mail, updated_at = now()`,
    [shopId, shopMail],
  )
}

export type SampleContract = {
  id: string
  firstName: string | null
  lastName: string | null
  displayName: string
  nextBillingDate: Date | null
  /** 次回お届け予定日 as 契約詳細 shows it (the contract's お届け予定日 attribute), or null. */
  deliveryDate: string | null
  currencyCode: string
  lines: MailLine[]
}

/**
 * The shop's newest active contract with its customer and first lines, for the preview and the
 * test mail; null when the mirror holds none.
 */
export async function findSampleContract(db: DbClient, shopId: string): Promise<SampleContract | null> {
  const { rows } = await db.query<{
    id: string
    first_name: string | null
    last_name: string | null
    display_name: string | null
    next_billing_date: Date | null
    currency_code: string
    custom_attributes: Attribute[]
  }>(
    `select c.id::text, cu.first_name, cu.last_name, cu.display_name, c.next_billing_date, c.currency_code,
       c.custom_attributes
     from subscription_contracts c left join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where c.shop_id = $1 and c.status = 'ACTIVE' order by c.created_at desc, c.id desc limit 1`,
    [shopId],
  )
  const c = rows[0]
  if (!c) return null
  const lines = await db.query<{
    title: string
    variant_title: string | null
    quantity: number
    price: string | null
  }>(
    `select title, variant_title, quantity, current_price::text as price from subscription_lines
     where shop_id = $1 and contract_id = $2 order by position, id limit 20`,
    [shopId, c.id],
  )
  return {
    id: c.id,
    firstName: c.first_name,
    lastName: c.last_name,
    displayName: c.display_name ?? '',
    nextBillingDate: c.next_billing_date,
    deliveryDate: deliveryDateOf(c.custom_attributes),
    currencyCode: c.currency_code,
    lines: lines.rows.map((l) => ({
      title: l.title,
      variantTitle: l.variant_title,
      quantity: l.quantity,
      unitPrice: { amount: l.price ?? '0', currencyCode: c.currency_code },
    })),
  }
}

/**
 * A contract's lines as its mails list them (first 20; spec §9's default), from the mirror, each
 * at its price in `unitPrices` (by line id: the cycle the mail is about) or else its current one.
 */
export async function contractLines(
  db: DbClient,
  shopId: string,
  contractId: string,
  unitPrices?: ReadonlyMap<string, string>,
): Promise<MailLine[]> {
  const { rows } = await db.query<{
    id: string
    title: string
    variant_title: string | null
    quantity: number
    price: string | null
    currency_code: string
  }>(
    `select l.id, l.title, l.variant_title, l.quantity, l.current_price::text as price, c.currency_code
     from subscription_lines l join subscription_contracts c on c.shop_id = l.shop_id and c.id = l.contract_id
     where l.shop_id = $1 and l.contract_id = $2 order by l.position, l.id limit 20`,
    [shopId, contractId],
  )
  return rows.map((l) => ({
    title: l.title,
    variantTitle: l.variant_title,
    quantity: l.quantity,
    unitPrice: { amount: unitPrices?.get(l.id) ?? l.price ?? '0', currencyCode: l.currency_code },
  }))
}

/** The contract's customer (address, name) and next billing date, for a mail about it. */
export async function contractRecipient(db: DbClient, shopId: string, contractId: string) {
  const { rows } = await db.query<{
    email: string | null
    first_name: string | null
    last_name: string | null
    display_name: string | null
    next_billing_date: Date | null
  }>(
    `select cu.email, cu.first_name, cu.last_name, cu.display_name, c.next_billing_date
     from subscription_contracts c join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  return rows[0] ?? null
}

export type UpcomingContract = {
  id: string
  next_billing_date: Date
  email: string
  first_name: string | null
  last_name: string | null
  display_name: string | null
  currency_code: string
  delivery_price: string | null
  /** The contract's custom attributes: its お届け予定日, when one is set, is the mail's. */
  custom_attributes: Attribute[]
}

type Attribute = { key: string; value: string | null }

/**
 * ACTIVE contracts billed in [start, end) whose customer has an address and whose notice for
 * that day is not in the outbox yet (its dedupe key), with their delivery price.
 */
export function contractsDueForNotice(
  db: DbClient,
  shopId: string,
  window: { day: string; start: Date; endExclusive: Date },
  limit: number,
  /** The last contract of the previous batch: the next starts after it. */ after: Pick<
    UpcomingContract,
    'id' | 'next_billing_date'
  > | null = null,
) {
  return queryRows<UpcomingContract>(
    db,
    `select c.id::text, c.next_billing_date, cu.email, cu.first_name, cu.last_name, cu.display_name,
       c.currency_code, c.delivery_price::text, c.custom_attributes
     from subscription_contracts c join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date >= $2 and c.next_billing_date < $3
       and cu.email is not null
       and not exists (select 1 from mail_outbox o where coalesce(o.shop_id, 0) = c.shop_id
                       and o.dedupe_key = 'upcoming:' || c.id || ':' || $4)
       and ($6::timestamptz is null or (c.next_billing_date, c.id) > ($6, $7::bigint))
     order by c.next_billing_date, c.id limit $5`,
    [
      shopId,
      window.start,
      window.endExclusive,
      window.day,
      limit,
      after?.next_billing_date ?? null,
      after?.id ?? null,
    ],
  )
}
