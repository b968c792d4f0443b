import {
  CARRIERS,
  DELIVERY_TIME_LABELS,
  type DeliverySettings,
  PREFECTURES,
  toZonedDate,
} from '@teiki/domain'
import type { AdminClient } from '../../platform/admin-client.ts'
import { fetchAppInstallationId } from '../../platform/operations/current-app-installation.ts'
import { setMetafields } from '../../platform/operations/metafields-set.ts'

// What the product block's お届け日時 reads (issue 25 item 2): the app-data metafield
// `teiki.delivery` (JSON) on the app's installation, rewritten whole after every save of
// 配送設定. The block computes the deliverable dates from it in the shopper's browser
// (extensions/teiki-subscriptions/src/teiki-blocks.ts, the domain's calendar bundled in), so
// the page needs no request to the app; without it the block uses the defaults.

export const DELIVERY_KEY = 'delivery'

export type StorefrontDelivery = DeliverySettings & {
  slots: Array<{ slot: string; label: string; code: string }>
  /** A line for far prefectures: 「北海道は+1日、沖縄県は+2日かかります」; '' when none. */
  far_note: string
}

/** The metafield's value at `now`: closed dates already past are left out (the page stays small). */
export function storefrontDelivery(settings: DeliverySettings, now: Date): StorefrontDelivery {
  const today = toZonedDate(now, 'Asia/Tokyo')
  const far = Object.entries(settings.extraDaysByPrefecture)
    .filter(([, days]) => days > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, days]) => `${PREFECTURES.find((p) => p.code === code)?.name ?? code}は+${days}日`)
  return {
    ...settings,
    closedDates: settings.closedDates.filter((d) => d >= today),
    slots: CARRIERS[settings.carrier].slots.map((s) => ({
      slot: s.slot,
      label: DELIVERY_TIME_LABELS[s.slot],
      code: s.code,
    })),
    far_note: far.length > 0 ? `お届けまで${far.join('、')}かかります。` : '',
  }
}

/** Rewrites `teiki.delivery`; returns what it wrote. Platform errors are thrown. */
export async function publishDeliveryCalendar(
  client: AdminClient,
  settings: DeliverySettings,
  now: Date,
): Promise<StorefrontDelivery> {
  const value = storefrontDelivery(settings, now)
  const ownerId = await fetchAppInstallationId(client)
  await setMetafields(client, [
    { ownerId, namespace: 'teiki', key: DELIVERY_KEY, type: 'json', value: JSON.stringify(value) },
  ])
  return value
}
