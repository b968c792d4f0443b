import type { DeliverySettingsBody, DeliverySettingsResponse } from '@teiki/contract'
import {
  CARRIERS,
  DEFAULT_DELIVERY_SETTINGS,
  DELIVERY_TIME_LABELS,
  type DeliverySettings,
  isCarrierKey,
} from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { findDeliverySettings, saveDeliverySettings } from './repo.ts'
import { publishDeliveryCalendar } from './storefront-calendar.ts'

/**
 * 配送設定 (issue 25): what the shop saved, or the defaults. The other features read the
 * settings through here (billing's order attributes, the storefront's calendar), never the table.
 */
export async function deliverySettingsOf(db: DbClient, shopId: string): Promise<DeliverySettings> {
  const saved = await findDeliverySettings(db, shopId)
  // A row written by a later version with a carrier this one does not know reads as the defaults.
  if (!saved || !isCarrierKey(saved.carrier)) return DEFAULT_DELIVERY_SETTINGS
  return { ...DEFAULT_DELIVERY_SETTINGS, ...saved }
}

function answer(
  settings: DeliverySettings,
  storefrontProblem: string | null = null,
): DeliverySettingsResponse {
  const slots = CARRIERS[settings.carrier].slots.map((s) => ({
    slot: s.slot,
    label: DELIVERY_TIME_LABELS[s.slot],
    code: s.code,
  }))
  return {
    settings: {
      ...settings,
      extraDaysByPrefecture: { ...settings.extraDaysByPrefecture },
      closedDates: [...settings.closedDates],
    },
    slots,
    storefrontProblem,
  }
}

export async function getDeliverySettings(db: DbClient, shopId: string): Promise<DeliverySettingsResponse> {
  return answer(await deliverySettingsOf(db, shopId))
}

/**
 * Saves the settings as checked at the edge (ZDeliverySettings), closed dates sorted and unique,
 * then publishes them to the storefront's calendar (teiki.delivery). The save stands when the
 * platform refuses that: the answer says so, and the next save publishes again.
 */
export async function putDeliverySettings(
  db: DbClient,
  shopId: string,
  body: DeliverySettingsBody,
  client: AdminClient,
  now: Date = new Date(),
): Promise<DeliverySettingsResponse> {
  if (!isCarrierKey(body.carrier)) throw new Error(`unknown carrier ${body.carrier}`)
  const settings: DeliverySettings = {
    ...body,
    carrier: body.carrier,
    closedDates: [...new Set(body.closedDates)].sort(),
  }
  await saveDeliverySettings(db, shopId, settings)
  try {
    await publishDeliveryCalendar(client, settings, now)
    return answer(settings)
  } catch (error) {
    const merchant = platformError(error, 'ストアのお届け日時カレンダーの更新')
    const why =
      merchant instanceof AppError
        ? merchant.message
        : 'ストアのお届け日時カレンダーを更新できませんでした。しばらくしてから、もう一度保存してください。'
    return answer(settings, `配送設定は保存しました。${why}`)
  }
}
