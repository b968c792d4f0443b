import type { UpcomingChargesResponse } from '@teiki/contract'
import { formatDateJa, formatDateTimeJa, formatMoney, formatNumber } from '@teiki/domain'

/** The windows the merchant can look ahead over (the server accepts 1–31 days). */
export const UPCOMING_DAYS = [7, 14, 31] as const
export type UpcomingDays = (typeof UPCOMING_DAYS)[number]

export const DAYS_OPTIONS = UPCOMING_DAYS.map((days) => ({ label: `今後${days}日間`, value: String(days) }))

export function parseDays(value: string): UpcomingDays {
  return UPCOMING_DAYS.find((days) => String(days) === value) ?? 7
}

export type UpcomingState =
  | { status: 'loading'; previous: UpcomingChargesResponse | null }
  | { status: 'error'; message: string }
  | { status: 'success'; data: UpcomingChargesResponse }

/** One currency's total: `合計 ¥123,456（45件）`. */
export function totalLabel(total: UpcomingChargesResponse['totals'][number]): string {
  return `合計 ${formatMoney(total.amount, total.currencyCode)}（${formatNumber(total.count)}件）`
}

/** The Japan-time days covered: `2026年11月22日〜2026年11月28日`. */
export function periodLabel(data: Pick<UpcomingChargesResponse, 'from' | 'to'>): string {
  return `${formatDateJa(data.from, 'Asia/Tokyo')}〜${formatDateJa(data.to, 'Asia/Tokyo')}`
}

export const emptyMessage = (days: number) => `今後${days}日間の請求予定はありません`

export const cycleLabel = (cycle: number) => `${cycle}回目`

/**
 * A charge waiting for the customer's 3-D Secure (本人認証待ち): until when, in Japan time
 * (`認証期限 2026年11月28日 10:00`); null for any other charge.
 */
export function authenticationLabel(charge: UpcomingChargesResponse['charges'][number]): string | null {
  const deadline = charge.authenticationDeadline
  return deadline ? `認証期限 ${formatDateTimeJa(deadline, 'Asia/Tokyo')}` : null
}

/** The data on screen: the answer, or the previous one while the next page loads. */
export function shownData(state: UpcomingState): UpcomingChargesResponse | null {
  return state.status === 'success' ? state.data : state.status === 'loading' ? state.previous : null
}

/** Previous / next are offered only when idle, within the total the server reported. */
export function paginationOf(state: UpcomingState, offset: number) {
  const data = shownData(state)
  const idle = state.status === 'success'
  return {
    range: data ? { offset, shown: data.charges.length, total: data.total } : null,
    hasPrevious: idle && offset > 0,
    hasNext: idle && data !== null && offset + data.charges.length < data.total,
  }
}
