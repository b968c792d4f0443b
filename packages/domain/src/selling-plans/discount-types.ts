import { keysOf } from '../format/keys.ts'

/**
 * The four discount types of a selling plan (spec §3 "Discount types") and how a plan's type is
 * read back from what the platform and the app hold (spec §4): the number of the plan's pricing
 * policies on the platform decides between none, fixed and recurring (0, 1, 2), and custom cycle
 * discounts kept by the app make it "recurring multi" whatever the platform holds (ADR 0013).
 */

/** The discount types, each with its Japanese name as the editor and the list show it. */
export const discountTypeLabel = {
  noDiscount: '割引なし',
  fixedDiscount: '固定割引',
  recurringDiscount: '初回と2回目以降で割引を変える',
  recurringMultiDiscount: '回数ごとに割引を変える',
} as const
export type DiscountType = keyof typeof discountTypeLabel
export const DISCOUNT_TYPES = keysOf(discountTypeLabel)

/**
 * What a discount value is: a percentage off, an amount off, or the price itself (platform
 * enum), each with its Japanese name.
 */
export const discountValueTypeLabel = {
  PERCENTAGE: '％オフ',
  FIXED_AMOUNT: '円引き',
  PRICE: '価格指定',
} as const
export type DiscountValueType = keyof typeof discountValueTypeLabel
export const DISCOUNT_VALUE_TYPES = keysOf(discountValueTypeLabel)

/**
 * The discount type of a plan: `customCycleDiscountCount` > 0 (rules the app keeps for the plan)
 * is recurring multi; otherwise the platform's pricing policies count, 0 none, 1 fixed, 2
 * recurring. More than two policies, or a negative count, is a `RangeError` (the platform allows
 * at most two).
 */
export function planDiscountType(pricingPolicyCount: number, customCycleDiscountCount = 0): DiscountType {
  if (!Number.isSafeInteger(customCycleDiscountCount) || customCycleDiscountCount < 0)
    throw new RangeError(`customCycleDiscountCount must be 0 or more: ${customCycleDiscountCount}`)
  if (!Number.isSafeInteger(pricingPolicyCount) || pricingPolicyCount < 0 || pricingPolicyCount > 2)
    throw new RangeError(`A selling plan has 0-2 pricing policies, not ${pricingPolicyCount}`)
  if (customCycleDiscountCount > 0) return 'recurringMultiDiscount'
  return (['noDiscount', 'fixedDiscount', 'recurringDiscount'] as const)[pricingPolicyCount]!
}
