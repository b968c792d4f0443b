import { isValidCalendarDate, zonedDayRange } from '../format/dates.ts'
import { formatMoney } from '../format/money.ts'
import { type SubscriptionStatus, statusLabel } from '../subscriptions/statuses.ts'

/**
 * The segment condition language (ADR 0017). A segment is a saved set of conditions on the
 * customer mirror. Every condition present must hold (AND); within one condition's list any
 * item may hold (OR). A segment with no condition holds every customer of the shop. Ranges are
 * inclusive at both ends; a range bound left out is open. The server compiles the same
 * conditions to SQL (features/cdp/segment-sql.ts) and its tests check both agree.
 */
export type SegmentConditions = {
  /** Customers with a contract attributed to any of these source (and medium, when given). */
  traffic?: Array<{ source: string; medium?: string }>
  /** Customers with a contract in any of these statuses. */
  statuses?: SubscriptionStatus[]
  /** Successful subscription orders, all currencies counted. */
  orderCount?: { min?: number; max?: number }
  /** Lifetime value in the shop's currency (major units: yen). */
  lifetimeValue?: { min?: number; max?: number }
  /** Day of the first successful subscription order, in the shop's zone (YYYY-MM-DD). */
  firstOrderDate?: { from?: string; to?: string }
  /** Customers with a contract line of a plan of any of these selling plan groups. */
  sellingPlanGroupIds?: string[]
  /** Customers carrying any of `any` and none of `none`. */
  tags?: { any?: string[]; none?: string[] }
}

/** What a condition is tested against: one customer as the mirror holds them. */
export type SegmentCustomer = {
  tags: readonly string[]
  orderCount: number
  /** Amount per currency, major units. */
  amounts: Readonly<Record<string, number>>
  firstOrderAt: Date | null
  contracts: ReadonlyArray<{ status: SubscriptionStatus; sellingPlanGroupIds: readonly string[] }>
  attributions: ReadonlyArray<{ source: string; medium: string }>
}

const inRange = (value: number, range: { min?: number; max?: number }) =>
  (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max)

/** Whether `customer` belongs to a segment with `conditions`. `currency` and `timeZone` are the shop's. */
export function matchesSegment(
  customer: SegmentCustomer,
  conditions: SegmentConditions,
  currency: string,
  timeZone: string,
): boolean {
  const c = conditions
  if (c.traffic?.length) {
    const hit = customer.attributions.some((a) =>
      c.traffic!.some((t) => t.source === a.source && (!t.medium || t.medium === a.medium)),
    )
    if (!hit) return false
  }
  if (c.statuses?.length && !customer.contracts.some((k) => c.statuses!.includes(k.status))) return false
  if (c.orderCount && !inRange(customer.orderCount, c.orderCount)) return false
  if (c.lifetimeValue && !inRange(customer.amounts[currency] ?? 0, c.lifetimeValue)) return false
  if (c.firstOrderDate) {
    if (!customer.firstOrderAt) return false
    const { start, endExclusive } = zonedDayRange(c.firstOrderDate.from, c.firstOrderDate.to, timeZone)
    if (start && customer.firstOrderAt < start) return false
    if (endExclusive && customer.firstOrderAt >= endExclusive) return false
  }
  if (c.sellingPlanGroupIds?.length) {
    const wanted = c.sellingPlanGroupIds
    if (!customer.contracts.some((k) => k.sellingPlanGroupIds.some((g) => wanted.includes(g)))) return false
  }
  if (c.tags?.any?.length && !customer.tags.some((t) => c.tags!.any!.includes(t))) return false
  if (c.tags?.none?.length && customer.tags.some((t) => c.tags!.none!.includes(t))) return false
  return true
}

/** Largest count, amount and list length a condition takes (ADR 0017). */
export const SEGMENT_LIMITS = { count: 100_000, amount: 1_000_000_000_000, list: 50, text: 255 } as const

/**
 * Why the conditions cannot be saved, field → Japanese message; {} when they can. Bounds out
 * of order, a day that does not exist and an empty traffic source are refused; an empty range
 * object (`{}`) is accepted and means no condition.
 */
export function segmentProblems(c: SegmentConditions): Record<string, string> {
  const problems: Record<string, string> = {}
  const range = (key: string, label: string, r?: { min?: number; max?: number }) => {
    if (!r) return
    for (const v of [r.min, r.max]) {
      if (v !== undefined && (!Number.isFinite(v) || v < 0))
        problems[key] = `${label}は0以上の数値で指定してください`
    }
    if (!problems[key] && r.min !== undefined && r.max !== undefined && r.min > r.max)
      problems[key] = `${label}の下限は上限以下にしてください`
  }
  range('orderCount', '購入回数', c.orderCount)
  if (
    c.orderCount &&
    [c.orderCount.min, c.orderCount.max].some((v) => v !== undefined && !Number.isInteger(v))
  )
    problems.orderCount = '購入回数は整数で指定してください'
  range('lifetimeValue', 'LTV', c.lifetimeValue)
  const d = c.firstOrderDate
  if (d) {
    if ([d.from, d.to].some((v) => v !== undefined && !isValidCalendarDate(v)))
      problems.firstOrderDate = '初回購入日に存在しない日付が指定されました'
    else if (d.from && d.to && d.from > d.to)
      problems.firstOrderDate = '初回購入日の開始日は終了日以前にしてください'
  }
  if (c.traffic?.some((t) => t.source.trim() === '')) problems.traffic = '流入元（source）を指定してください'
  return problems
}

/** The conditions without empty parts, so equal segments store equal JSON. */
export function normalizeConditions(c: SegmentConditions): SegmentConditions {
  const out: SegmentConditions = {}
  const uniq = <T>(xs: readonly T[]) => [...new Set(xs)]
  const range = <T extends Record<string, unknown>>(r?: T) =>
    r && Object.values(r).some((v) => v !== undefined && v !== '') ? r : undefined
  if (c.traffic?.length)
    out.traffic = c.traffic.map((t) =>
      t.medium ? { source: t.source, medium: t.medium } : { source: t.source },
    )
  if (c.statuses?.length) out.statuses = uniq(c.statuses)
  const orderCount = range(c.orderCount)
  if (orderCount) out.orderCount = orderCount
  const ltv = range(c.lifetimeValue)
  if (ltv) out.lifetimeValue = ltv
  const first = range(c.firstOrderDate)
  if (first) out.firstOrderDate = first
  if (c.sellingPlanGroupIds?.length) out.sellingPlanGroupIds = uniq(c.sellingPlanGroupIds)
  const any = uniq(c.tags?.any ?? [])
  const none = uniq(c.tags?.none ?? [])
  if (any.length || none.length)
    out.tags = { ...(any.length ? { any } : {}), ...(none.length ? { none } : {}) }
  return out
}

const between = (from: string, to: string, unit: string) =>
  from && to ? `${from}〜${to}${unit}` : from ? `${from}${unit}以上` : `${to}${unit}以下`

/**
 * The conditions in the merchant's words, one phrase per condition (the list and the export
 * mail show them). `groupNames` names the selling plan groups the mirror knows.
 */
export function describeConditions(
  c: SegmentConditions,
  currency: string,
  groupNames: Readonly<Record<string, string>> = {},
): string[] {
  const parts: string[] = []
  if (c.traffic?.length)
    parts.push(
      `流入元 ${c.traffic.map((t) => (t.medium ? `${t.source} / ${t.medium}` : t.source)).join('・')}`,
    )
  if (c.statuses?.length) parts.push(`契約ステータス ${c.statuses.map((s) => statusLabel[s]).join('・')}`)
  if (c.orderCount)
    parts.push(
      `購入回数 ${between(c.orderCount.min?.toString() ?? '', c.orderCount.max?.toString() ?? '', '回')}`,
    )
  if (c.lifetimeValue) {
    const m = (v?: number) => (v === undefined ? '' : formatMoney(v, currency))
    parts.push(`LTV ${between(m(c.lifetimeValue.min), m(c.lifetimeValue.max), '')}`)
  }
  if (c.firstOrderDate)
    parts.push(`初回購入日 ${between(c.firstOrderDate.from ?? '', c.firstOrderDate.to ?? '', '')}`)
  if (c.sellingPlanGroupIds?.length)
    parts.push(`販売プラン ${c.sellingPlanGroupIds.map((id) => groupNames[id] ?? `#${id}`).join('・')}`)
  if (c.tags?.any?.length) parts.push(`タグ ${c.tags.any.join('・')} のいずれかあり`)
  if (c.tags?.none?.length) parts.push(`タグ ${c.tags.none.join('・')} なし`)
  return parts.length > 0 ? parts : ['条件なし（すべての顧客）']
}
