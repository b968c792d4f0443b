import type { SubscriptionDetail, SubscriptionStatus } from '@teiki/contract'
import {
  billingIntervalLabel,
  canMove,
  cycleRangeLabel,
  formatDateJa,
  formatDateTimeJa,
  formatMoney,
  formatPhoneJa,
  isValidCalendarDate,
  japaneseName,
  prefectureName,
  toZonedDate,
} from '@teiki/domain'

/**
 * Pure text helpers of the contract detail page, unit-tested without a browser.
 */

export type DetailInterval = SubscriptionDetail['interval']
export type ShippingAddress = Extract<SubscriptionDetail['deliveryMethod'], { kind: 'shipping' }>['address']
export type BillingAttempt = SubscriptionDetail['billingAttempts'][number]

/** Billing interval as the merchant reads it: 毎日, 3日ごと, 2週間ごと, 1ヶ月ごと, 1年ごと. */
export const intervalLabel: (interval: DetailInterval, count: number) => string = billingIntervalLabel

const WEEKDAYS_JA = ['月曜日', '火曜日', '水曜日', '木曜日', '金曜日', '土曜日', '日曜日']

type Anchor = Pick<SubscriptionDetail['anchors'][number], 'type' | 'day' | 'month'>

/** One anchor as the day it bills on: `15日`, `月曜日`, `3月15日`; null when it says nothing usable. */
function anchorDay(anchor: Anchor): string | null {
  const day = anchor.day
  if (day === null) return null
  switch (anchor.type) {
    case 'WEEKDAY':
      return WEEKDAYS_JA[day - 1] ?? null
    case 'MONTHDAY':
      return day >= 1 && day <= 31 ? `${day}日` : null
    case 'YEARDAY':
      return anchor.month !== null && day >= 1 && day <= 31 ? `${anchor.month}月${day}日` : null
    default:
      return null
  }
}

/**
 * The schedule with the day it bills on, from the anchors: `毎月15日`, `毎週月曜日`,
 * `2ヶ月ごと（15日）`, `毎月1日・15日`, `毎年3月15日`. Without a usable anchor, the interval alone
 * (`1ヶ月ごと`): the day then follows the last billing date.
 */
export function scheduleLabel(interval: DetailInterval, count: number, anchors: readonly Anchor[]): string {
  const n = Number.isFinite(count) && count > 0 ? count : 1
  const wanted = interval === 'WEEK' ? 'WEEKDAY' : interval === 'MONTH' ? 'MONTHDAY' : 'YEARDAY'
  const days = anchors
    .filter((anchor) => anchor.type === wanted)
    .map(anchorDay)
    .filter((day): day is string => day !== null)
  if (interval === 'DAY' || days.length === 0) return intervalLabel(interval, n)
  const on = days.join('・')
  if (n > 1) return `${intervalLabel(interval, n)}（${on}）`
  const every = interval === 'WEEK' ? '毎週' : interval === 'MONTH' ? '毎月' : '毎年'
  return `${every}${on}`
}

/** A cycle count (min/max cycles, recurring limits): `3回`, or the fallback when unset. */
export function cyclesLabel(cycles: number | null, fallback = '—'): string {
  return cycles === null ? fallback : `${cycles}回`
}

/** Japanese postal code: 7 digits get their hyphen (`1500001` → `150-0001`). */
export function formatZip(zip: string): string {
  const digits = zip.trim()
  return /^\d{7}$/.test(digits) ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits
}

const blank = (value: string | null | undefined): boolean => value == null || value.trim() === ''

/**
 * A shipping address in Japanese order, one entry per line, empty lines left out:
 * `〒150-0001`, `東京都渋谷区神宮前1-2-3 青山ビル101`, `山田 太郎 様`, `TEL 090-…`.
 */
export function addressLines(address: ShippingAddress): string[] {
  const lines: string[] = []
  if (!blank(address.zip)) lines.push(`〒${formatZip(address.zip ?? '')}`)
  // Some writers store the ISO code (JP-13) as the province: show the prefecture's name.
  const province =
    address.province && /^JP-\d{2}$/i.test(address.province.trim())
      ? prefectureName(address.province.trim().toUpperCase())
      : address.province
  const street = [province, address.city, address.address1]
    .filter((part) => !blank(part))
    .map((part) => part?.trim())
    .join('')
  const full = [street, address.address2?.trim() ?? ''].filter((part) => part !== '').join(' ')
  if (full) lines.push(full)
  const name = japaneseName({ firstName: address.firstName, lastName: address.lastName })
  if (name) lines.push(`${name} 様`)
  if (!blank(address.phone)) lines.push(`TEL ${formatPhoneJa(address.phone ?? '')}`)
  return lines
}

const CARD_BRANDS: Record<string, string> = {
  visa: 'VISA',
  master: 'Mastercard',
  mastercard: 'Mastercard',
  american_express: 'American Express',
  amex: 'American Express',
  jcb: 'JCB',
  diners_club: 'Diners Club',
  discover: 'Discover',
  unionpay: 'UnionPay',
}

/** Card brand as printed on cards (`visa` → `VISA`); unknown brands are shown as given. */
export function cardBrandLabel(brand: string): string {
  const key = brand
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
  return CARD_BRANDS[key] ?? brand.trim()
}

/** `VISA ****4242`. */
export function cardLabel(brand: string, lastDigits: string): string {
  return `${cardBrandLabel(brand)} ****${lastDigits}`
}

/** Card expiry as `MM/YYYY` (`3, 2027` → `03/2027`). */
export function cardExpiryLabel(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${year}`
}

/** Last payment status: SUCCEEDED 成功, FAILED 失敗, none —; other values as given. */
export function paymentStatusLabel(status: string | null): string {
  if (status === null || status === '') return '—'
  if (status === 'SUCCEEDED') return '成功'
  if (status === 'FAILED') return '失敗'
  return status
}

export type AttemptState = {
  label: '処理中' | '成功' | '失敗' | '本人認証待ち'
  tone: 'info' | 'success' | 'critical' | 'attention'
  /** What the merchant should know beyond the badge, or null. */
  note: string | null
}

const ATTEMPT_STATES: Record<BillingAttempt['outcome'], AttemptState> = {
  pending: { label: '処理中', tone: 'info', note: null },
  success: { label: '成功', tone: 'success', note: null },
  failed: { label: '失敗', tone: 'critical', note: null },
  challenged: {
    label: '本人認証待ち',
    tone: 'attention',
    note: 'カード会社が本人認証（3Dセキュア）を求めています。お客様に認証用のリンクをメールでお送りしました。認証が済むと注文が作成されます。',
  },
}

/**
 * A billing attempt by the outcome the server read from the platform: processing (処理中),
 * succeeded (成功), failed (失敗), or waiting for the customer's 3-D Secure (本人認証待ち).
 */
export function billingAttemptState(attempt: Pick<BillingAttempt, 'outcome'>): AttemptState {
  return ATTEMPT_STATES[attempt.outcome]
}

/**
 * A line's unit price per order on the 商品 card, from the server's ranges (the billing engine's
 * price of each order, issue 22): the next order's (`次回（2回目） ¥2,592`) and every range from
 * it on, labelled by order number (`2〜3回目 ¥2,592`, `4回目以降 ¥2,916`; a first-order-only
 * price is `1回目`, never `1回目以降`).
 */
export function linePriceTexts(
  line: Pick<SubscriptionDetail['lines'][number], 'cyclePrices'>,
  nextCycle: number,
): { next: string | null; ranges: string[] } {
  const money = (p: { amount: string; currencyCode: string }) => safeMoney(p.amount, p.currencyCode)
  const next = line.cyclePrices.find((r) => r.from <= nextCycle && (r.to === null || nextCycle <= r.to))
  return {
    next: next ? `次回（${nextCycle}回目） ${money(next.price)}` : null,
    ranges: line.cyclePrices.map((r) => `${cycleRangeLabel(r)} ${money(r.price)}`),
  }
}

/** The numeric tail of an id that may be a GID (`gid://shopify/Customer/123` → `123`). */
export function numericId(id: string): string {
  return /(\d+)$/.exec(id)?.[1] ?? id
}

export type ContractAction = 'pause' | 'resume' | 'churn'

/** The status each action asks for. */
export const ACTION_TARGET: Record<ContractAction, SubscriptionStatus> = {
  pause: 'PAUSED',
  resume: 'ACTIVE',
  churn: 'CANCELLED',
}

/** Actions the domain's status table allows from `status`, in page order. */
export function availableActions(status: SubscriptionStatus): ContractAction[] {
  return (['pause', 'resume', 'churn'] as const).filter((action) => canMove(status, ACTION_TARGET[action]))
}

export const CHURN_REASON_MAX = 500

/** Formats a date with `format`, falling back to the raw text (or —) instead of throwing. */
export function safeDate(value: string | null, format: (iso: string, zone: string) => string): string {
  if (value === null || value === '') return '—'
  try {
    return format(value, 'Asia/Tokyo')
  } catch {
    return value
  }
}

/** Money for the screen, falling back to the raw amount instead of throwing on odd input. */
export function safeMoney(amount: string | number, currencyCode: string): string {
  try {
    return formatMoney(amount, currencyCode)
  } catch {
    return String(amount)
  }
}

// An ISO instant with its offset (`2026-11-24T01:00:00Z`, `…+09:00`): written by apps and scripts.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/**
 * A custom attribute's value for the screen: a calendar date (お届け予定日 `2026-11-24`) as
 * `2026年11月24日`, an ISO instant as Japan-time date and time; anything else as stored.
 */
export function attributeText(value: string | null): string {
  if (value === null || value.trim() === '') return '—'
  const text = value.trim()
  if (isValidCalendarDate(text)) return formatDateJa(text, 'Asia/Tokyo')
  return ISO_INSTANT.test(text) ? safeDate(text, formatDateTimeJa) : value
}

/** The Japan-time calendar day (`YYYY-MM-DD`) of an instant, for date inputs; '' when unknown. */
export function japanDateInput(value: string | null): string {
  if (value === null || value === '') return ''
  try {
    return toZonedDate(value, 'Asia/Tokyo')
  } catch {
    return ''
  }
}

/** A payment instrument in one line: `VISA ****4242（有効期限 03/2027・期限切れ）`, `PayPal（…）`. */
export function instrumentLabel(instrument: SubscriptionDetail['paymentMethod']): string {
  switch (instrument.kind) {
    case 'card': {
      const expiry = `有効期限 ${cardExpiryLabel(instrument.expiryMonth, instrument.expiryYear)}`
      return `${cardLabel(instrument.brand, instrument.lastDigits)}（${expiry}${instrument.isExpired ? '・期限切れ' : ''}）`
    }
    case 'paypal':
      return `PayPal${instrument.email ? `（${instrument.email}）` : ''}`
    case 'wallet':
      return instrument.name ?? 'ウォレット決済'
    case 'none':
      return '不明な決済方法'
  }
}
