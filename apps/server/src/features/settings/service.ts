import type { SettingsResponse, ShopSettings } from '@teiki/contract'
import { noteAttributeProblem, skuConversionsProblem, thankYouSettingsProblem } from '@teiki/domain'
import { getOrderContentText, putOrderContentText } from '../../billing/order-content.ts'
import { deliveryPrepDaysOperation } from '../../billing/prep-days.ts'
import { getBillingSettings, putBillingSettings } from '../../billing/settings.ts'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { saveThankYouSettings, thankYouText } from '../thank-you/service.ts'

/** 設定: the JSON settings and the delivery prep days (kept with the billing settings, which use them). */
export async function getSettings(db: Db, shop: ShopRow): Promise<Omit<SettingsResponse, 'pixel'>> {
  const order = await getOrderContentText(db, shop.id)
  const billing = await getBillingSettings(db, shop.id)
  return {
    settings: {
      noteAttribute: order.noteAttribute,
      skuConversions: order.skuConversions,
      thankPageScript: await thankYouText(db, shop.id),
      deliveryPrepDays: billing.deliveryPrepDays,
    },
    deliveryPrepDays: await deliveryPrepDaysOperation(db, shop),
  }
}

/**
 * Saves every setting or none: each JSON text checked (400 pointing at the error), a changed
 * prep days value only when spec §5 allows it (403 saying why), in one transaction.
 */
export async function putSettings(
  db: Db,
  shop: ShopRow,
  s: ShopSettings,
): Promise<Omit<SettingsResponse, 'pixel'>> {
  const problem =
    noteAttributeProblem(s.noteAttribute) ??
    skuConversionsProblem(s.skuConversions) ??
    thankYouSettingsProblem(s.thankPageScript)
  if (problem) throw new AppError('INVALID_INPUT', problem)
  await withTransaction(db, async (tx) => {
    // The billing settings row is locked, so a concurrent change of the prep days waits for this one.
    await tx.query('select 1 from billing_settings where shop_id = $1 for update', [shop.id])
    const billing = await getBillingSettings(tx, shop.id)
    if (billing.deliveryPrepDays !== s.deliveryPrepDays) {
      const operation = await deliveryPrepDaysOperation(tx, shop)
      if (!operation.updatable) throw new AppError('FORBIDDEN', operation.reason!)
      await putBillingSettings(tx, shop.id, { ...billing, deliveryPrepDays: s.deliveryPrepDays })
    }
    await putOrderContentText(tx, shop.id, {
      noteAttribute: s.noteAttribute,
      skuConversions: s.skuConversions,
    })
    await saveThankYouSettings(tx, shop.id, s.thankPageScript)
  })
  return getSettings(db, shop)
}
