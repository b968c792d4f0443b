import { decimalToString, parseDecimal, roundDecimal } from '../format/decimal.ts'
import { currencyDigits } from '../format/money.ts'

/**
 * The price of each billing cycle from a contract line's pricing policy (issue 5). All amounts
 * are exact decimals (BigInt units) until one rounding at the end: half-up to the currency's
 * minor unit (JPY whole yen), on the exact decimal, never on a float. ADR 0009.
 */

/** A cycle discount of a contract line (SubscriptionCyclePriceAdjustment). */
export type CycleDiscount = {
  adjustmentType: 'PERCENTAGE' | 'FIXED_AMOUNT' | 'PRICE'
  /** Decimal text: a percentage (0-100) or an amount in the contract's currency. */
  adjustmentValue: string
  /** Applies to the cycles after this one: 0 from the first cycle, N from cycle N + 1. */
  afterCycle: number
}

export type LinePricingPolicy = { basePrice: string; cycleDiscounts: readonly CycleDiscount[] }

/** An exact non-negative or negative decimal: `units` × 10^-scale. */
type Exact = { units: bigint; scale: number }

function exact(text: string, what: string): Exact {
  if (typeof text !== 'string') throw new RangeError(`${what} must be decimal text`)
  const value = parseDecimal(text)
  if (value.negative) throw new RangeError(`${what} must not be negative: "${text}"`)
  return { units: BigInt(value.int + value.frac), scale: value.frac.length }
}

function rescale(value: Exact, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}

function plus(a: Exact, b: Exact): Exact {
  const scale = Math.max(a.scale, b.scale)
  return { units: rescale(a, scale) + rescale(b, scale), scale }
}

function times(a: Exact, b: Exact): Exact {
  return { units: a.units * b.units, scale: a.scale + b.scale }
}

/** The one rounding rule for billed money: half-up (away from zero) to the currency's minor unit. */
function toMinorUnitText(value: Exact, currencyCode: string): string {
  const decimal = parseDecimal(`${value.units}e${-value.scale}`)
  return decimalToString(roundDecimal(decimal, currencyDigits(currencyCode), 'half-up'))
}

function assertDiscount(discount: CycleDiscount): Exact {
  if (!Number.isSafeInteger(discount.afterCycle) || discount.afterCycle < 0) {
    throw new RangeError(`afterCycle must be a whole number, at least 0: ${discount.afterCycle}`)
  }
  if (!['PERCENTAGE', 'FIXED_AMOUNT', 'PRICE'].includes(discount.adjustmentType)) {
    throw new RangeError(`Unknown adjustmentType: ${String(discount.adjustmentType)}`)
  }
  const value = exact(discount.adjustmentValue, 'adjustmentValue')
  if (
    discount.adjustmentType === 'PERCENTAGE' &&
    value.units > rescale({ units: 100n, scale: 0 }, value.scale)
  ) {
    throw new RangeError(`A percentage must be 0-100: "${discount.adjustmentValue}"`)
  }
  return value
}

/**
 * The discount in force on `cycle` (1-based): among those with `afterCycle < cycle`, the one
 * with the greatest `afterCycle`; on a tie the first listed. Null when none applies yet.
 */
export function cycleDiscountFor(discounts: readonly CycleDiscount[], cycle: number): CycleDiscount | null {
  if (!Number.isSafeInteger(cycle) || cycle < 1) throw new RangeError(`cycle must be 1 or more: ${cycle}`)
  let found: CycleDiscount | null = null
  for (const discount of discounts) {
    assertDiscount(discount)
    if (discount.afterCycle < cycle && (found === null || discount.afterCycle > found.afterCycle))
      found = discount
  }
  return found
}

/**
 * Unit price of cycle `cycle` (1-based) as decimal text with the currency's minor digits
 * (JPY "1782", USD "12.30"). PERCENTAGE p: base × (1 − p/100); FIXED_AMOUNT a: base − a, never
 * below 0; PRICE a: a. Rounded once, half-up on the exact decimal: 15% off ¥999 is 849.15 → ¥849.
 * Throws `RangeError` for a negative amount, a percentage above 100 or a cycle below 1.
 */
export function cycleUnitPrice(policy: LinePricingPolicy, cycle: number, currencyCode: string): string {
  const base = exact(policy.basePrice, 'basePrice')
  const discount = cycleDiscountFor(policy.cycleDiscounts, cycle)
  if (discount === null) return toMinorUnitText(base, currencyCode)
  const value = exact(discount.adjustmentValue, 'adjustmentValue')
  switch (discount.adjustmentType) {
    case 'PERCENTAGE': {
      // base × (100 − p) / 100, exactly: the division by 100 is two more decimal places.
      const kept: Exact = {
        units: rescale({ units: 100n, scale: 0 }, value.scale) - value.units,
        scale: value.scale,
      }
      const product = times(base, kept)
      return toMinorUnitText({ units: product.units, scale: product.scale + 2 }, currencyCode)
    }
    case 'FIXED_AMOUNT': {
      const rest = plus(base, { units: -value.units, scale: value.scale })
      return toMinorUnitText(rest.units < 0n ? { units: 0n, scale: 0 } : rest, currencyCode)
    }
    case 'PRICE':
      return toMinorUnitText(value, currencyCode)
  }
}

/**
 * Amount of one cycle: Σ unit price × quantity, plus the delivery price, summed exactly and
 * rounded once (half-up) to the currency's minor unit. Decimal text as `cycleUnitPrice`.
 */
export function cycleTotal(
  lines: ReadonlyArray<{ unitPrice: string; quantity: number }>,
  deliveryPrice: string | null,
  currencyCode: string,
): string {
  let total: Exact = deliveryPrice === null ? { units: 0n, scale: 0 } : exact(deliveryPrice, 'deliveryPrice')
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
      throw new RangeError(`quantity must be a whole number, at least 0: ${line.quantity}`)
    }
    total = plus(total, times(exact(line.unitPrice, 'unitPrice'), { units: BigInt(line.quantity), scale: 0 }))
  }
  return toMinorUnitText(total, currencyCode)
}

/**
 * The discount type of a selling plan from its number of pricing policies (spec §4: 0 none,
 * 1 fixed, 2 recurring). The platform allows at most two; more is a `RangeError`.
 */
export function discountTypeOf(
  pricingPolicyCount: number,
): 'noDiscount' | 'fixedDiscount' | 'recurringDiscount' {
  if (pricingPolicyCount === 0) return 'noDiscount'
  if (pricingPolicyCount === 1) return 'fixedDiscount'
  if (pricingPolicyCount === 2) return 'recurringDiscount'
  throw new RangeError(`A selling plan has 0-2 pricing policies, not ${pricingPolicyCount}`)
}
