import type { ThankYouBlock, ThankYouContract } from '@teiki/contract'
import {
  attributeValue,
  DELIVERY_TIME_ATTRIBUTE,
  deliveryDateOf,
  nextOrderDates,
  parseThankYouSettings,
  pixelTagsSetting,
  type ThankYouSettings,
  thankYouSettingsProblem,
} from '@teiki/domain'
import { nextOrderRules } from '../../billing/order-attributes.ts'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { contractsOfOrder, findThankYouText, saveThankYouText } from './repo.ts'

/**
 * サンクスページ (issue 25 item 5, ADR 0039): the settings (message, 計測タグ, a kept old
 * script) and what the thank-you block shows. The settings screen saves them through
 * `saveThankYouSettings` (with the other settings, in its transaction); the web pixel reads the
 * tags through `conversionTagsSetting`; the block reads `thankYouBlock`.
 */

export async function thankYouSettingsOf(db: DbClient, shopId: string): Promise<ThankYouSettings> {
  return parseThankYouSettings(await findThankYouText(db, shopId))
}

/** The JSON text as saved (what GET /settings answers). */
export const thankYouText = (db: DbClient, shopId: string) => findThankYouText(db, shopId)

/** Checks and saves the JSON text; 400 pointing at the error. */
export async function saveThankYouSettings(db: DbClient, shopId: string, text: string): Promise<void> {
  const problem = thankYouSettingsProblem(text)
  if (problem) throw new AppError('INVALID_INPUT', problem)
  await saveThankYouText(db, shopId, text)
}

/** The web pixel's `conversionTags` setting for the shop (`[]` when it has none). */
export async function conversionTagsSetting(db: DbClient, shopId: string): Promise<string> {
  return pixelTagsSetting((await thankYouSettingsOf(db, shopId)).tags)
}

/**
 * The block's answer for an order of this shop. Each contract the order started: the first
 * delivery as chosen at the cart (the contract's お届け希望日 and 配送時間帯 attributes), and
 * the next order as billing will make it (domain `nextOrderDates`: the お届け予定日 billing writes
 * on that order and 出荷予定 lists it by). An order of another shop, or one whose
 * contracts have not reached the app yet, has none (`pending`: the block asks again).
 */
export async function thankYouBlock(db: DbClient, shop: ShopRow, orderId: string): Promise<ThankYouBlock> {
  const settings = await thankYouSettingsOf(db, shop.id)
  const rows = await contractsOfOrder(db, shop.id, orderId)
  if (rows.length === 0) return { message: settings.message, pending: true, contracts: [] }
  const dates = await nextOrderRules(db, shop)
  const contracts = rows.map((row): ThankYouContract => {
    const promised = deliveryDateOf(row.custom_attributes)
    const next = nextOrderDates(
      { status: row.status, nextBillingAt: row.next_billing_date, promisedDate: promised },
      dates,
    )
    return {
      contractId: row.id,
      planName: row.plan_names ?? '',
      firstDeliveryDate: promised,
      deliveryTime: attributeValue(row.custom_attributes, DELIVERY_TIME_ATTRIBUTE),
      nextBillingDate: next?.billingDate ?? null,
      nextDeliveryDate: next?.deliveryDate ?? null,
    }
  })
  return { message: settings.message, pending: false, contracts }
}
