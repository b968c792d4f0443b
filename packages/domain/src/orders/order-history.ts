import { addDays } from '../analytics/report-dates.ts'
import { formatDateJa, toZonedDate, zonedDayStart } from '../format/dates.ts'

/**
 * How much of a shop's order history the app holds. The platform gives an app the last 60 days
 * of orders unless it also holds `read_all_orders` (shopify.dev, Admin GraphQL `Order`), so a
 * first sync without it reads the orders created from (the sync's end − 60 days) on; orders
 * after that arrive by webhook. Figures built from orders (sales, persistence, LTV, a customer's
 * totals) are then complete from the first whole shop-local day after that instant.
 */
export const PLATFORM_ORDER_HISTORY_DAYS = 60

/** The instant from which a sync that ended at `syncEnd` read every order, without read_all_orders. */
export function ordersReadableFrom(syncEnd: Date): Date {
  return new Date(syncEnd.getTime() - PLATFORM_ORDER_HISTORY_DAYS * 86_400_000)
}

/**
 * The first shop-local day (`YYYY-MM-DD`) all of whose orders the app holds: the day of
 * `readableFrom` when it is that day's midnight, else the next day.
 */
export function ordersCompleteFrom(readableFrom: Date, timeZone: string): string {
  const day = toZonedDate(readableFrom, timeZone)
  return zonedDayStart(day, timeZone).getTime() === readableFrom.getTime() ? day : addDays(day, 1)
}

/** 「2026年9月28日以降の注文に基づく集計です」 */
export function orderHistoryMessage(completeFrom: string): string {
  return `${formatDateJa(completeFrom)}以降の注文に基づく集計です`
}

/**
 * What a screen says about its figures: nothing when every order is held (`completeFrom` null)
 * or the screen shows only days from `completeFrom` on (`shownFrom`, the first day it counts;
 * null for lifetime figures such as a customer's totals), else the message.
 */
export function orderHistoryNotice(completeFrom: string | null, shownFrom: string | null): string | null {
  if (completeFrom === null) return null
  if (shownFrom !== null && shownFrom >= completeFrom) return null
  return orderHistoryMessage(completeFrom)
}
