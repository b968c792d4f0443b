import type { ContractLineRecord, LinePricingPolicyRecord, PricingPolicy } from './records.ts'
import type { DiscountRecord } from './records-extra.ts'

/**
 * Money arithmetic of contract lines: a pricing policy's price per cycle and how a contract's
 * discounts split over its lines. Amounts are numbers in shop currency, as records keep them.
 */

/** Currencies without minor units (ISO 4217 exponent 0): the platform rounds them to whole units. */
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'XAF', 'XOF', 'XPF'])

/** Minor units per unit: 1 for yen, 100 for most currencies. */
const unitsPer = (currencyCode: string) => (ZERO_DECIMAL.has(currencyCode) ? 1 : 100)

/** Rounds half up to the currency's smallest unit (whole yen for JPY). */
export function roundMoney(amount: number, currencyCode: string): number {
  const f = unitsPer(currencyCode)
  return Math.round(amount * f) / f
}

/**
 * `basePrice` less `percentage`%, rounded half up to the currency's smallest unit on the exact
 * value: in floating point 1990 × 0.95 is 1890.4999…, which would round to 1890 instead of
 * 1891. Works in integers (minor units × thousandths of a percent), exact for percentages with
 * up to three decimals and prices below 10^9 minor units.
 */
export function percentOff(basePrice: number, percentage: number, currencyCode: string): number {
  const f = unitsPer(currencyCode)
  const units = Math.round(basePrice * f)
  const kept = Math.round((100 - percentage) * 1000) // thousandths of a percent
  const scale = 100_000
  const product = units * kept // exact: below 2^53 for the documented range
  const whole = Math.floor(product / scale)
  const rounded = whole + (2 * (product - whole * scale) >= scale ? 1 : 0)
  return rounded / f
}

/** The unit price a pricing policy adjustment gives `basePrice`. */
export function cyclePrice(basePrice: number, p: PricingPolicy, currencyCode: string): number {
  const v = p.adjustmentValue
  if (v.__typename === 'SellingPlanPricingPolicyPercentageValue')
    return percentOff(basePrice, v.percentage, currencyCode)
  const amount = Number(v.amount)
  if (p.adjustmentType === 'PRICE') return roundMoney(amount, currencyCode)
  return roundMoney(Math.max(0, basePrice - amount), currencyCode)
}

export type CycleAdjustment = {
  adjustmentType: PricingPolicy['adjustmentType']
  adjustmentValue: PricingPolicy['adjustmentValue']
  afterCycle: number
  computedPrice: number
}

/** SubscriptionPricingPolicy.cycleDiscounts: a fixed policy applies from cycle 0, in cycle order. */
export function cycleAdjustments(policy: LinePricingPolicyRecord, currencyCode: string): CycleAdjustment[] {
  return policy.cycleDiscounts
    .map((p) => ({
      adjustmentType: p.adjustmentType,
      adjustmentValue: p.adjustmentValue,
      afterCycle: p.afterCycle ?? 0,
      computedPrice: cyclePrice(policy.basePrice, p, currencyCode),
    }))
    .sort((a, b) => a.afterCycle - b.afterCycle)
}

export type Allocation = { amount: number; discount: DiscountRecord }

/** Used up: applied on as many orders as its recurring cycle limit allows. */
const exhausted = (d: DiscountRecord) =>
  d.recurringCycleLimit !== null && d.recurringCycleLimit > 0 && d.usageCount >= d.recurringCycleLimit

/**
 * How the discounts split over `lines` (SubscriptionLine.discountAllocations), by line id. Only
 * line-item discounts that still apply take part, and every one targets all lines (entitledLines
 * is `all` in the emulator). A percentage takes its share of each line's total (price ×
 * quantity); a fixed amount "on each item" takes the amount per unit; any other fixed amount is
 * split over the lines in proportion to what is left of them, the rounding remainder going to the
 * largest fractions, so the shares add up to the discount exactly. No line is discounted below 0:
 * later discounts get what earlier ones left.
 */
export function allocateDiscounts(
  lines: readonly ContractLineRecord[],
  discounts: readonly DiscountRecord[],
  currencyCode: string,
): Map<number, Allocation[]> {
  const f = unitsPer(currencyCode)
  // Whole minor units keep the sums exact.
  const units = (amount: number) => Math.round(amount * f)
  const out = new Map<number, Allocation[]>(lines.map((l) => [l.id, []]))
  const left = lines.map((l) => units(l.currentPrice * l.quantity))
  for (const d of discounts) {
    if (d.targetType !== 'LINE_ITEM' || exhausted(d)) continue
    const value = d.value
    let wanted: number[]
    if ('percentage' in value) {
      wanted = lines.map((l) => units((l.currentPrice * l.quantity * value.percentage) / 100))
    } else if (value.appliesOnEachItem) {
      wanted = lines.map((l) => units(value.amount * l.quantity))
    } else {
      const pool = left.reduce((s, x) => s + x, 0)
      const total = Math.min(units(value.amount), pool)
      const exact = left.map((x) => (pool === 0 ? 0 : (total * x) / pool))
      wanted = exact.map(Math.floor)
      let rest = total - wanted.reduce((s, x) => s + x, 0)
      const byFraction = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0])
      for (const [, i] of byFraction) {
        if (rest <= 0) break
        wanted[i] = wanted[i]! + 1
        rest -= 1
      }
    }
    lines.forEach((l, i) => {
      const amount = Math.min(wanted[i]!, left[i]!)
      if (amount <= 0) return
      left[i] = left[i]! - amount
      out.get(l.id)!.push({ amount: amount / f, discount: d })
    })
  }
  return out
}
