import { cycleSchedule } from '../billing/cycle-price.ts'
import type { CycleDiscount } from '../billing/pricing.ts'
import { parseDecimal } from '../format/decimal.ts'
import { currencyDigits } from '../format/money.ts'
import { type CustomCycleDiscount, withCustomCycleDiscounts } from '../selling-plans/plan-pricing.ts'

/**
 * What the storefront's plans block is given to price the plans whose later cycles only the app
 * knows (recurring multi, ADR 0013): the app-data metafield `teiki.plan_prices` (ADR 0026). The
 * platform's selling plan data holds at most two price adjustments and none of the app's rules,
 * so for those plans the block reads each plan's schedule here: ranges of cycles with the one
 * discount in force on them (`cycleSchedule`, the billing engine's), in integers Liquid can apply
 * to any variant's price exactly as `cycleUnitPrice` does.
 *
 * Liquid prices are in hundredths of the currency unit (¥3,240 is 324000). For a range:
 * - `percentage`: price = round half-up(base × keep / per, to `unit`): keep/per is 1 − p/100 as
 *   a fraction of integers (30% off: 7/10). The block computes it as
 *   n = 2·base·keep + per·unit, d = 2·per·unit, price = (n − n mod d) / d × unit: integer steps
 *   only, exact while 2·base·keep stays below 2^53 (any price under ¥10,000,000 at 4 decimals).
 * - `off`: price = max(base − subunits, 0); `price`: price = subunits; `base`: the variant's price.
 * `to` is 0 for the open last range. Tiers per plan, never per variant, so the value stays small
 * (JSON metafields take 128 KB from API 2026-04) and needs no rewrite when a price changes.
 */

type Range = { from: number; to: number }
export type StorefrontTier =
  | (Range & { kind: 'base' })
  | (Range & { kind: 'percentage'; keep: number; per: number })
  | (Range & { kind: 'off' | 'price'; subunits: number })

export type StorefrontPlanPrices = {
  /** Liquid subunits per minor unit of the shop's currency: JPY 100 (whole yen), USD 1. */
  unit: number
  /** By numeric selling plan id. */
  plans: Record<string, StorefrontTier[]>
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b))

/** 1 − p/100 as integers, reduced: 30 → 7/10, 12.5 → 7/8. */
function keptFraction(percentage: string): { keep: number; per: number } {
  const d = parseDecimal(percentage)
  const per = 100n * 10n ** BigInt(d.frac.length)
  const keep = per - BigInt(d.int + d.frac)
  if (keep < 0n) throw new RangeError(`A percentage must be 0-100: "${percentage}"`)
  const g = gcd(keep, per)
  return { keep: Number(keep / g), per: Number(per / g) }
}

/** An amount in Liquid's subunits (hundredths): "300" → 30000. */
function subunits(amount: string): number {
  const d = parseDecimal(amount)
  const hundredths = BigInt(d.int + d.frac.padEnd(2, '0').slice(0, 2))
  if (/[1-9]/.test(d.frac.slice(2))) throw new RangeError(`More than two decimals: "${amount}"`)
  return Number(hundredths)
}

function tierOf(range: Range, discount: CycleDiscount | null): StorefrontTier {
  if (discount === null) return { ...range, kind: 'base' }
  switch (discount.adjustmentType) {
    case 'PERCENTAGE':
      return { ...range, kind: 'percentage', ...keptFraction(discount.adjustmentValue) }
    case 'FIXED_AMOUNT':
      return { ...range, kind: 'off', subunits: subunits(discount.adjustmentValue) }
    case 'PRICE':
      return { ...range, kind: 'price', subunits: subunits(discount.adjustmentValue) }
  }
}

/**
 * A plan's tiers: the platform's policies of the plan (as the cycle discounts a line bought with
 * it gets) with the app's rules over them, exactly as the engine prices such a line.
 */
export function storefrontPlanTiers(
  platformDiscounts: readonly CycleDiscount[],
  rules: readonly CustomCycleDiscount[],
): StorefrontTier[] {
  const policy = withCustomCycleDiscounts({ basePrice: '0', cycleDiscounts: [...platformDiscounts] }, rules)
  return cycleSchedule(policy.cycleDiscounts).map((r) => tierOf({ from: r.from, to: r.to ?? 0 }, r.discount))
}

/** The metafield's value for the shop's plans that have app rules. */
export function storefrontPlanPrices(
  plans: ReadonlyArray<{
    id: string
    platformDiscounts: readonly CycleDiscount[]
    rules: readonly CustomCycleDiscount[]
  }>,
  currencyCode: string,
): StorefrontPlanPrices {
  const digits = currencyDigits(currencyCode)
  const out: StorefrontPlanPrices = { unit: digits >= 2 ? 1 : 10 ** (2 - digits), plans: {} }
  for (const plan of plans) {
    if (plan.rules.length > 0) out.plans[plan.id] = storefrontPlanTiers(plan.platformDiscounts, plan.rules)
  }
  return out
}
