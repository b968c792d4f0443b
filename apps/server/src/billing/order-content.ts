import { parseNoteAttributes, parseSkuConversions, type SkuConversion } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'

/**
 * What a subscription order carries besides its lines (設定 › 注文メモ属性 and SKU変換), kept as
 * the JSON texts the 設定 screen edits (validated there, features/settings/service.ts) in the
 * shop_settings row. Billing owns them as it owns the preparation days: the settings feature
 * reads and writes them through here, and billing reads them for every renewal's order.
 */
export type OrderContentText = { noteAttribute: string; skuConversions: string }

export type OrderContent = {
  noteAttributes: Array<{ key: string; value: string }>
  skuConversions: SkuConversion[]
}

const EMPTY: OrderContentText = { noteAttribute: '[]', skuConversions: '[]' }

export async function getOrderContentText(db: DbClient, shopId: string): Promise<OrderContentText> {
  const { rows } = await db.query<OrderContentText>(
    `select note_attribute as "noteAttribute", sku_conversions as "skuConversions"
     from shop_settings where shop_id = $1`,
    [shopId],
  )
  return rows[0] ?? EMPTY
}

export async function putOrderContentText(db: DbClient, shopId: string, s: OrderContentText): Promise<void> {
  await db.query(
    `insert into shop_settings (shop_id, note_attribute, sku_conversions) values ($1, $2, $3)
     on conflict (shop_id) do update set note_attribute = excluded.note_attribute,
       sku_conversions = excluded.sku_conversions, updated_at = now()`,
    [shopId, s.noteAttribute, s.skuConversions],
  )
}

/** The shop's order content, parsed (a text that no longer validates counts as empty). */
export async function orderContentOf(db: DbClient, shopId: string): Promise<OrderContent> {
  const text = await getOrderContentText(db, shopId)
  return {
    noteAttributes: parseNoteAttributes(text.noteAttribute),
    skuConversions: parseSkuConversions(text.skuConversions),
  }
}
