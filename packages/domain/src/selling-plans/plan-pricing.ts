import type { CycleDiscount, LinePricingPolicy } from '../billing/pricing.ts'
import { decimalToString, parseDecimal, roundDecimal } from '../format/decimal.ts'
import { currencyDigits } from '../format/money.ts'
import type { DiscountType, DiscountValueType } from './discount-types.ts'
import type { SellingPlanForm } from './plan-form.ts'

/**
 * From the editor's discount fields to the platform's pricing policies and the app's custom
 * cycle discounts, and back; and the price each cycle of a plan carries (ADR 0013).
 */

/** `SellingPlanPricingPolicyValueInput`: a percentage, or an amount as Decimal text. */
export type PricingValueInput = { percentage: number } | { fixedValue: string }

/** `SellingPlanPricingPolicyInput` as the app sends it. */
export type PricingPolicyInput =
  | { fixed: { adjustmentType: DiscountValueType; adjustmentValue: PricingValueInput } }
  | {
      recurring: { adjustmentType: DiscountValueType; adjustmentValue: PricingValueInput; afterCycle: number }
    }

/** A custom cycle discount as the app keeps it: `adjustmentValue` applies from cycle `cycle` on. */
export type CustomCycleDiscount = {
  cycle: number
  adjustmentType: DiscountValueType
  /** Decimal text: a percentage, or an amount already in the currency's minor unit. */
  adjustmentValue: string
}

/**
 * An amount as the platform is sent it: rounded half-up to the currency's minor unit, so JPY
 * fixed values are whole yen (spec §5: "For JPY, fixed values are converted to whole numbers"):
 * 300.4 → "300", 300.5 → "301". Throws `RangeError` for a value that is not finite.
 */
export function platformAmount(value: number | string, currencyCode: string): string {
  return decimalToString(roundDecimal(parseDecimal(value), currencyDigits(currencyCode), 'half-up'))
}

/** A value of `type` as the platform input holds it: percentages as they are, amounts converted. */
export function pricingValue(
  type: DiscountValueType,
  value: number,
  currencyCode: string,
): PricingValueInput {
  return type === 'PERCENTAGE' ? { percentage: value } : { fixedValue: platformAmount(value, currencyCode) }
}

/**
 * The pricing policies of a plan the validation passed (spec §4: none 0, fixed 1, recurring 2).
 * A recurring-multi plan sends its cycle-1 rule as its one fixed policy, so checkout (which
 * only the platform prices) charges the first cycle by it; without a cycle-1 rule, 0% off.
 */
export function pricingPoliciesOf(form: SellingPlanForm, currencyCode: string): PricingPolicyInput[] {
  const type = form.valueType
  const value = (v: number | null) => pricingValue(type!, v ?? 0, currencyCode)
  switch (form.discountType) {
    case 'fixedDiscount':
      return [{ fixed: { adjustmentType: type!, adjustmentValue: value(form.initialValue) } }]
    case 'recurringDiscount':
      return [
        { fixed: { adjustmentType: type!, adjustmentValue: value(form.initialValue) } },
        {
          recurring: {
            adjustmentType: type!,
            adjustmentValue: value(form.laterValue),
            afterCycle: form.afterCycle ?? 1,
          },
        },
      ]
    case 'recurringMultiDiscount': {
      const first = customCycleDiscountsOf(form, currencyCode).find((r) => r.cycle === 1)
      // No cycle-1 rule: a 0% policy all the same, so the line checkout makes carries a pricing
      // policy (its base price) for the app's later rules to be laid over (issue 22).
      if (!first) return [{ fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 0 } } }]
      const adjustmentValue = pricingValue(first.adjustmentType, Number(first.adjustmentValue), currencyCode)
      return [{ fixed: { adjustmentType: first.adjustmentType, adjustmentValue } }]
    }
    default:
      return []
  }
}

/** The custom cycle discounts a recurring-multi plan keeps in the app, by cycle; [] for other types. */
export function customCycleDiscountsOf(form: SellingPlanForm, currencyCode: string): CustomCycleDiscount[] {
  if (form.discountType !== 'recurringMultiDiscount' || form.valueType === null) return []
  const type = form.valueType
  return form.cycleDiscounts
    .filter((r): r is { cycle: number; value: number } => r.cycle !== null && r.value !== null)
    .map((r) => ({
      cycle: r.cycle,
      adjustmentType: type,
      adjustmentValue: type === 'PERCENTAGE' ? String(r.value) : platformAmount(r.value, currencyCode),
    }))
    .sort((a, b) => a.cycle - b.cycle)
}

/**
 * Why a list of custom cycle discounts cannot be kept (Japanese), or null: cycles are whole
 * numbers from 1, each once; values are present and at least 0; a percentage is at most 100.
 */
export function customCycleDiscountProblem(
  type: DiscountValueType | null,
  rules: ReadonlyArray<{ cycle: number | null; value: number | null }>,
): string | null {
  if (type === null) return '割引の単位（％オフ・円引きなど）を選んでください'
  if (rules.length === 0) return '回数ごとの割引を1件以上入力してください'
  const seen = new Set<number>()
  for (const rule of rules) {
    if (rule.cycle === null || !Number.isSafeInteger(rule.cycle) || rule.cycle < 1)
      return '回数は1以上の整数で入力してください'
    if (seen.has(rule.cycle)) return `${rule.cycle}回目の割引が重複しています`
    seen.add(rule.cycle)
    if (rule.value === null || !Number.isFinite(rule.value))
      return `${rule.cycle}回目の割引の値を入力してください`
    if (rule.value < 0) return `${rule.cycle}回目の割引の値は0以上で入力してください`
    if (type === 'PERCENTAGE' && rule.value > 100)
      return `${rule.cycle}回目の割引は100％以下で入力してください`
  }
  return null
}

/**
 * A line's pricing policy with a plan's custom cycle discounts applied: the rule with the
 * greatest cycle ≤ the cycle being priced wins; before the first rule the line's own discounts
 * apply (those that start before it). Rules become cycle discounts with afterCycle = cycle − 1,
 * the platform's own meaning, so `cycleUnitPrice` prices them with the one rounding rule.
 */
export function withCustomCycleDiscounts(
  policy: LinePricingPolicy,
  rules: readonly CustomCycleDiscount[],
): LinePricingPolicy {
  if (rules.length === 0) return policy
  const first = Math.min(...rules.map((r) => r.cycle))
  const fromRules: CycleDiscount[] = rules.map((r) => ({
    adjustmentType: r.adjustmentType,
    adjustmentValue: r.adjustmentValue,
    afterCycle: r.cycle - 1,
  }))
  const before = policy.cycleDiscounts.filter((d) => d.afterCycle < first - 1)
  return { basePrice: policy.basePrice, cycleDiscounts: [...fromRules, ...before] }
}

/** The line pricing policy the platform gives a line bought with a plan of these policies. */
export function linePolicyOf(basePrice: string, policies: readonly PricingPolicyInput[]): LinePricingPolicy {
  return {
    basePrice,
    cycleDiscounts: policies.map((p) => {
      const part = 'fixed' in p ? { ...p.fixed, afterCycle: 0 } : p.recurring
      const value = part.adjustmentValue
      return {
        adjustmentType: part.adjustmentType,
        adjustmentValue: 'percentage' in value ? String(value.percentage) : value.fixedValue,
        afterCycle: part.afterCycle,
      }
    }),
  }
}

/** A pricing policy as read back from the platform: afterCycle null for the fixed one. */
export type StoredPricingPolicy = {
  afterCycle: number | null
  adjustmentType: DiscountValueType
  value: number
}

/** The editor's discount fields of a stored plan: its policies and the app's rules (spec §4). */
export function discountFieldsOf(
  policies: readonly StoredPricingPolicy[],
  rules: readonly CustomCycleDiscount[],
): Pick<
  SellingPlanForm,
  'discountType' | 'valueType' | 'initialValue' | 'laterValue' | 'afterCycle' | 'cycleDiscounts'
> {
  const fixed = policies.find((p) => p.afterCycle === null) ?? null
  const recurring = policies.find((p) => p.afterCycle !== null) ?? null
  const base = { initialValue: null, laterValue: null, afterCycle: null, cycleDiscounts: [] }
  if (rules.length > 0) {
    return {
      ...base,
      discountType: 'recurringMultiDiscount' as DiscountType,
      valueType: rules[0]!.adjustmentType,
      cycleDiscounts: [...rules]
        .sort((a, b) => a.cycle - b.cycle)
        .map((r) => ({ cycle: r.cycle, value: Number(r.adjustmentValue) })),
    }
  }
  if (policies.length === 0) return { ...base, discountType: 'noDiscount', valueType: null }
  const first = fixed ?? recurring!
  if (policies.length === 1 || !recurring || !fixed)
    return {
      ...base,
      discountType: 'fixedDiscount',
      valueType: first.adjustmentType,
      initialValue: first.value,
    }
  return {
    ...base,
    discountType: 'recurringDiscount',
    valueType: fixed.adjustmentType,
    initialValue: fixed.value,
    laterValue: recurring.value,
    afterCycle: recurring.afterCycle,
  }
}
