import { type BillingSettings, DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import type { DbClient } from '../db/pool.ts'

type SettingsRow = {
  billing_hour: number
  lookback_days: number
  retry_attempts: number
  retry_interval_days: number
  final_action: BillingSettings['finalAction']
  inventory_retry_attempts: number
  inventory_retry_interval_days: number
  inventory_final_action: BillingSettings['inventoryFinalAction']
  delivery_prep_days: number
}

const COLUMNS = `billing_hour, lookback_days, retry_attempts, retry_interval_days, final_action,
  inventory_retry_attempts, inventory_retry_interval_days, inventory_final_action, delivery_prep_days`

function fromRow(r: SettingsRow): BillingSettings {
  return {
    billingHour: r.billing_hour,
    lookbackDays: r.lookback_days,
    retryAttempts: r.retry_attempts,
    retryIntervalDays: r.retry_interval_days,
    finalAction: r.final_action,
    inventoryRetryAttempts: r.inventory_retry_attempts,
    inventoryRetryIntervalDays: r.inventory_retry_interval_days,
    inventoryFinalAction: r.inventory_final_action,
    deliveryPrepDays: r.delivery_prep_days,
  }
}

/** The shop's billing settings; a shop that never saved any bills with the defaults. */
export async function getBillingSettings(db: DbClient, shopId: string): Promise<BillingSettings> {
  const { rows } = await db.query<SettingsRow>(`select ${COLUMNS} from billing_settings where shop_id = $1`, [
    shopId,
  ])
  return rows[0] ? fromRow(rows[0]) : { ...DEFAULT_BILLING_SETTINGS }
}

/** Stores the whole settings object (validated by the route) and answers what is stored. */
export async function putBillingSettings(
  db: DbClient,
  shopId: string,
  s: BillingSettings,
): Promise<BillingSettings> {
  const { rows } = await db.query<SettingsRow>(
    `insert into billing_settings (shop_id, ${COLUMNS})
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     on conflict (shop_id) do update set billing_hour = excluded.billing_hour,
       lookback_days = excluded.lookback_days, retry_attempts = excluded.retry_attempts,
       retry_interval_days = excluded.retry_interval_days, final_action = excluded.final_action,
       inventory_retry_attempts = excluded.inventory_retry_attempts,
       inventory_retry_interval_days = excluded.inventory_retry_interval_days,
       inventory_final_action = excluded.inventory_final_action,
       delivery_prep_days = excluded.delivery_prep_days, updated_at = now()
     returning ${COLUMNS}`,
    [
      shopId,
      s.billingHour,
      s.lookbackDays,
      s.retryAttempts,
      s.retryIntervalDays,
      s.finalAction,
      s.inventoryRetryAttempts,
      s.inventoryRetryIntervalDays,
      s.inventoryFinalAction,
      s.deliveryPrepDays,
    ],
  )
  return fromRow(rows[0]!)
}
