/**
 * The four discount types of a selling plan (spec §3 "Discount types") and how a plan's type is
 * read back from what the platform and the app hold (spec §4): the number of the plan's pricing
 * policies on the platform decides between none, fixed and recurring (0, 1, 2), and custom cycle
 * discounts kept by the app make it "recurring multi" whatever the platform holds (ADR 0013).
 */

export const DISCOUNT_TYPES = [
  'noDiscount',
  'fixedDiscount',
  'recurringDiscount',
  'recurringMultiDiscount',
] as const
export type DiscountType = (typeof DISCOUNT_TYPES)[number]

/** What a discount value is: a percentage off, an amount off, or the price itself (platform enum). */
export const DISCOUNT_VALUE_TYPES = ['PERCENTAGE', 'FIXED_AMOUNT', 'PRICE'] as const
export type DiscountValueType = (typeof DISCOUNT_VALUE_TYPES)[number]

/** Japanese name of each discount type, as the editor and the list show it. */
export const discountTypeLabel: Record<DiscountType, string> = {
  noDiscount: '割引なし',
  fixedDiscount: '固定割引',
  recurringDiscount: '初回と2回目以降で割引を変える',
  recurringMultiDiscount: '回数ごとに割引を変える',
}

/** Japanese name of each value type. */
export const discountValueTypeLabel: Record<DiscountValueType, string> = {
  PERCENTAGE: '％オフ',
  FIXED_AMOUNT: '円引き',
  PRICE: '価格指定',
}

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
