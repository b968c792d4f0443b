import type { ShippingForecast } from '@teiki/contract'
import {
  addCalendarDays,
  CARRIERS,
  cycleDependentSkus,
  type DeliverySettings,
  deliveryTimeSlot,
  type ForecastWindow,
  prefectureCode,
  prefectureName,
  type SkuConversion,
  shippingForecast,
  slotCode,
  toZonedDate,
  zonedDayStart,
} from '@teiki/domain'
import { orderContentOf } from '../../billing/order-content.ts'
import { getBillingSettings } from '../../billing/settings.ts'
import type { Db } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { deliverySettingsOf } from '../delivery/service.ts'
import { forecastRows } from './repo.ts'

/** What the forecast and its CSV need to know of the shop: its window and its rules. */
export type ForecastContext = {
  window: ForecastWindow
  /** The instant the window's last day ends (contracts billed later are not read). */
  until: Date
  delivery: DeliverySettings
  skuConversions: SkuConversion[]
}

/** The window of `days` days from today (the shop's calendar) and the rules that date orders. */
export async function forecastContext(
  db: Db,
  shop: ShopRow,
  days: number,
  now: Date,
): Promise<ForecastContext> {
  const timeZone = shop.iana_timezone
  const from = toZonedDate(now, timeZone)
  const to = addCalendarDays(from, days - 1)
  const [delivery, billing, content] = await Promise.all([
    deliverySettingsOf(db, shop.id),
    getBillingSettings(db, shop.id),
    orderContentOf(db, shop.id),
  ])
  return {
    window: { from, to, timeZone, prepDays: billing.deliveryPrepDays, closed: delivery },
    until: zonedDayStart(addCalendarDays(to, 1), timeZone),
    delivery,
    skuConversions: content.skuConversions,
  }
}

/** The carrier's code of a slot label (配送時間帯コード), '' for 指定なし or an unknown label. */
export function slotCodeOf(delivery: DeliverySettings, label: string): string {
  return slotCode(delivery.carrier, deliveryTimeSlot(label)) ?? ''
}

/**
 * 出荷予定: every day of the coming `days` (7 / 14 / 31) with the orders billing will create for
 * ACTIVE contracts, delivered that day: their units per SKU after SKU変換, their time slots with
 * the carrier's codes, their prefectures. Orders already created are the platform's, not here.
 */
export async function getShippingForecast(
  db: Db,
  shop: ShopRow,
  days: number,
  now = new Date(),
): Promise<ShippingForecast> {
  const ctx = await forecastContext(db, shop, days, now)
  const rows = await forecastRows(db, {
    shopId: shop.id,
    timeZone: ctx.window.timeZone,
    until: ctx.until,
    countSkus: cycleDependentSkus(ctx.skuConversions),
  })
  const forecast = shippingForecast({ window: ctx.window, ...rows, skuConversions: ctx.skuConversions })
  let orders = 0
  let units = 0
  const list = forecast.map((day) => {
    orders += day.orders
    for (const u of day.units) units += u.quantity
    // Rows of one prefecture may come under several spellings of its code: added up by code.
    const byPrefecture = new Map<string, number>()
    for (const p of day.prefectures) {
      const code = prefectureCode(p.code)
      byPrefecture.set(code, (byPrefecture.get(code) ?? 0) + p.orders)
    }
    return {
      date: day.date,
      orders: day.orders,
      units: day.units,
      slots: day.slots.map((s) => ({
        slot: s.slot,
        code: slotCodeOf(ctx.delivery, s.slot),
        orders: s.orders,
      })),
      prefectures: [...byPrefecture]
        .map(([code, n]) => ({ code, name: code ? prefectureName(code) : '住所なし', orders: n }))
        .sort((a, b) => b.orders - a.orders || a.code.localeCompare(b.code)),
    }
  })
  return {
    from: ctx.window.from,
    to: ctx.window.to,
    carrier: CARRIERS[ctx.delivery.carrier].name,
    prepDays: ctx.window.prepDays,
    orders,
    units,
    days: list,
  }
}
