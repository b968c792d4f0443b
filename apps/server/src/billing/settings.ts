import { type BillingSettings, DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import { type DbClient, queryRow } from '../db/pool.ts'

/** Each setting's column in billing_settings. */
const COLUMN_OF = {
  billingHour: 'billing_hour',
  lookbackDays: 'lookback_days',
  retryAttempts: 'retry_attempts',
  retryIntervalDays: 'retry_interval_days',
  finalAction: 'final_action',
  inventoryRetryAttempts: 'inventory_retry_attempts',
  inventoryRetryIntervalDays: 'inventory_retry_interval_days',
  inventoryFinalAction: 'inventory_final_action',
  deliveryPrepDays: 'delivery_prep_days',
} as const satisfies Record<keyof BillingSettings, string>

const KEYS = Object.keys(COLUMN_OF) as Array<keyof BillingSettings>
const COLUMNS = KEYS.map((key) => COLUMN_OF[key])
/** The columns read back as the settings object's keys. */
const SELECTED = KEYS.map((key) => `${COLUMN_OF[key]} as "${key}"`).join(', ')

/** The shop's billing settings; a shop that never saved any bills with the defaults. */
export async function getBillingSettings(db: DbClient, shopId: string): Promise<BillingSettings> {
  const stored = await queryRow<BillingSettings>(
    db,
    `select ${SELECTED} from billing_settings where shop_id = $1`,
    [shopId],
  )
  return stored ?? { ...DEFAULT_BILLING_SETTINGS }
}

/** Stores the whole settings object (validated by the route) and answers what is stored. */
export async function putBillingSettings(
  db: DbClient,
  shopId: string,
  s: BillingSettings,
): Promise<BillingSettings> {
  const stored = await queryRow<BillingSettings>(
    db,
    `insert into billing_settings (shop_id, ${COLUMNS.join(', ')})
     values ($1, ${COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})
     on conflict (shop_id) do update set ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')},
       updated_at = now()
     returning ${SELECTED}`,
    [shopId, ...KEYS.map((key) => s[key])],
  )
  return stored!
}
