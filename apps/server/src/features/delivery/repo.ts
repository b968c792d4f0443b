import type { DeliverySettings } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'

/** The shop's saved delivery settings, or null when it never saved any. */
export async function findDeliverySettings(db: DbClient, shopId: string): Promise<DeliverySettings | null> {
  const { rows } = await db.query<{ settings: DeliverySettings }>(
    'select settings from delivery_settings where shop_id = $1',
    [shopId],
  )
  return rows[0]?.settings ?? null
}

export async function saveDeliverySettings(
  db: DbClient,
  shopId: string,
  settings: DeliverySettings,
): Promise<void> {
  await db.query(
    `insert into delivery_settings (shop_id, settings) values ($1, $2)
     on conflict (shop_id) do update set settings = excluded.settings, updated_at = now()`,
    [shopId, JSON.stringify(settings)],
  )
}
