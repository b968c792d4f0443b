import { parseDecimal } from '../format/decimal.ts'
import type { SellingPlanForm } from '../selling-plans/plan-form.ts'
import {
  type CustomCycleDiscount,
  customCycleDiscountsOf,
  linePolicyOf,
  pricingPoliciesOf,
  withCustomCycleDiscounts,
} from '../selling-plans/plan-pricing.ts'
import { type CycleDiscount, cycleDiscountFor, cycleUnitPrice, type LinePricingPolicy } from './pricing.ts'

/**
 * The price of a contract line on any cycle (issue 22): the one function the storefront block's
 * data, 契約詳細, every mail that quotes an amount and the billing engine's charge are computed
 * with, so what each of them says for cycle n is one number.
 *
 * - fixed and recurring plans: the line's pricing policy (the platform's), priced by
 *   `cycleUnitPrice` (one half-up rounding to the currency's minor unit, ADR 0009);
 * - recurring multi: the app's custom cycle discounts of the line's plan laid over that policy
 *   (`withCustomCycleDiscounts`, ADR 0013);
 * - a contract whose prices the merchant set by hand, or a line without a policy: the line's
 *   current price on every cycle (the engine never reprices them).
 */

/** A contract line as its price per cycle needs it. */
export type CycleLine = {
  /** The unit price the line carries now (decimal text). */
  currentPrice: string
  /** The line's pricing policy on the platform, or null (a line without one keeps its price). */
  pricingPolicy: LinePricingPolicy | null
  /** The app's custom cycle discounts of the line's selling plan (ADR 0013); none: the policy alone. */
  planRules?: readonly CustomCycleDiscount[] | undefined
}

export type CyclePricing = {
  currencyCode: string
  /** The merchant set the contract's prices by hand: every cycle at the current price. */
  manualPrices?: boolean
}

/** The policy a line is priced by: its own, with its plan's custom cycle discounts over it. */
export function effectivePricingPolicy(line: CycleLine): LinePricingPolicy | null {
  if (!line.pricingPolicy) return null
  const rules = line.planRules ?? []
  return rules.length > 0 ? withCustomCycleDiscounts(line.pricingPolicy, rules) : line.pricingPolicy
}

const unchanged = (price: string, currencyCode: string) =>
  cycleUnitPrice({ basePrice: price, cycleDiscounts: [] }, 1, currencyCode)

/**
 * The unit price of cycle `cycle` (1-based: the checkout is cycle 1) of a contract line, as
 * decimal text in the currency's minor unit (JPY "2592"). Throws `RangeError` for a cycle
 * below 1 or a policy `cycleUnitPrice` refuses.
 */
export function linePriceForCycle(line: CycleLine, cycle: number, pricing: CyclePricing): string {
  if (!Number.isSafeInteger(cycle) || cycle < 1) throw new RangeError(`cycle must be 1 or more: ${cycle}`)
  const policy = pricing.manualPrices ? null : effectivePricingPolicy(line)
  if (!policy) return unchanged(line.currentPrice, pricing.currencyCode)
  return cycleUnitPrice(policy, cycle, pricing.currencyCode)
}

/** Cycles `from` to `to` (1-based, inclusive); `to` null: every cycle from `from` on. */
export type CycleRange = { from: number; to: number | null }

/** A range of cycles with the discount in force on each of them (null: the base price). */
export type ScheduleRange = CycleRange & { discount: CycleDiscount | null }

const decimalKey = (text: string) => {
  const d = parseDecimal(text)
  return `${d.negative ? '-' : ''}${d.int}.${d.frac}`
}

const sameDiscount = (a: CycleDiscount | null, b: CycleDiscount | null) =>
  a === null || b === null
    ? a === b
    : a.adjustmentType === b.adjustmentType && decimalKey(a.adjustmentValue) === decimalKey(b.adjustmentValue)

/**
 * Which discount is in force on which cycles, as consecutive ranges from cycle 1: the discount
 * can only change where one starts (afterCycle + 1), and neighbours with the same discount are
 * one range. The last range is open (`to` null). Base-price independent: the storefront's data
 * is this schedule of each plan (storefront/plan-cycle-prices.ts).
 */
export function cycleSchedule(discounts: readonly CycleDiscount[]): ScheduleRange[] {
  const starts = [...new Set([1, ...discounts.map((d) => d.afterCycle + 1)])].sort((a, b) => a - b)
  const out: ScheduleRange[] = []
  for (const from of starts) {
    const discount = cycleDiscountFor(discounts, from)
    const last = out.at(-1)
    if (last && sameDiscount(last.discount, discount)) continue
    if (last) last.to = from - 1
    out.push({ from, to: null, discount })
  }
  return out
}

/** A range of cycles at one unit price (decimal text in the minor unit). */
export type PriceRange = CycleRange & { price: string }

/**
 * The line's unit prices as ranges of cycles from `fromCycle` on (契約詳細: from the next order;
 * the storefront: from 1): `linePriceForCycle` at each range's first cycle, neighbours at the
 * same price merged, so 回数割 on ¥3,240 reads 1回目 ¥2,268 / 2〜3回目 ¥2,592 / 4回目以降
 * ¥2,916 and a first-order-only price is one cycle (1回目), never "1回目以降".
 */
export function linePriceRanges(line: CycleLine, pricing: CyclePricing, fromCycle = 1): PriceRange[] {
  if (!Number.isSafeInteger(fromCycle) || fromCycle < 1)
    throw new RangeError(`fromCycle must be 1 or more: ${fromCycle}`)
  const policy = pricing.manualPrices ? null : effectivePricingPolicy(line)
  const schedule: CycleRange[] = policy ? cycleSchedule(policy.cycleDiscounts) : [{ from: 1, to: null }]
  const out: PriceRange[] = []
  for (const range of schedule) {
    if (range.to !== null && range.to < fromCycle) continue
    const from = Math.max(range.from, fromCycle)
    const price = linePriceForCycle(line, from, pricing)
    const last = out.at(-1)
    if (last && decimalKey(last.price) === decimalKey(price)) last.to = range.to
    else out.push({ from, to: range.to, price })
  }
  return out
}

/** The price a list of ranges gives cycle `cycle`, or null when none covers it. */
export function priceInRanges(ranges: readonly PriceRange[], cycle: number): string | null {
  return ranges.find((r) => r.from <= cycle && (r.to === null || cycle <= r.to))?.price ?? null
}

/**
 * A range as a shopper and a merchant read it: 毎回 (every cycle from the first), 1回目 (one
 * cycle), 2〜3回目, 4回目以降.
 */
export function cycleRangeLabel(range: CycleRange): string {
  if (range.to === null) return range.from === 1 ? '毎回' : `${range.from}回目以降`
  return range.to === range.from ? `${range.from}回目` : `${range.from}〜${range.to}回目`
}

/** A contract line as the repricing needs it: its id, current unit price, policy and plan rules. */
export type PricedLine = CycleLine & { id: string }

/** A line whose price must move for the coming cycle: from its current price to the policy's. */
export type LineRepricing = { lineId: string; from: string; to: string }

/**
 * The lines whose unit price differs from what `linePriceForCycle` gives for `cycle` (the coming
 * one, 1-based), with the price to set. The platform charges a line's currentPrice and never
 * moves it by itself; the app sets each cycle's price (issue 5). Lines without a policy keep
 * their price. Prices compare as decimals ("1782.0" equals "1782").
 */
export function repricedLines(
  lines: readonly PricedLine[],
  cycle: number,
  currencyCode: string,
): LineRepricing[] {
  const out: LineRepricing[] = []
  for (const line of lines) {
    if (line.pricingPolicy === null) continue
    const to = linePriceForCycle(line, cycle, { currencyCode })
    if (decimalKey(line.currentPrice) !== decimalKey(to))
      out.push({ lineId: line.id, from: line.currentPrice, to })
  }
  return out
}

/**
 * The unit price cycle `cycle` (1-based) of a plan carries for a variant of `basePrice` (the
 * editor's preview): the line checkout would make (the platform's policies) with the plan's
 * custom cycle discounts, priced by `linePriceForCycle`. Decimal text in the minor unit.
 */
export function planCyclePrice(
  basePrice: string,
  form: SellingPlanForm,
  cycle: number,
  currencyCode: string,
): string {
  const line: CycleLine = {
    currentPrice: basePrice,
    pricingPolicy: linePolicyOf(basePrice, pricingPoliciesOf(form, currencyCode)),
    planRules: customCycleDiscountsOf(form, currencyCode),
  }
  return linePriceForCycle(line, cycle, { currencyCode })
}
