import { type CycleDiscount, cycleTotal, cycleUnitPrice, type LinePricingPolicy } from './pricing.ts'

/** A cycle discount as the platform takes it on a line (SubscriptionPricingPolicyCycleDiscountsInput). */
export type RebasedCycleDiscount = CycleDiscount & {
  /** The unit price this discount gives on the new base price. */
  computedPrice: string
}

export type RebasedPolicy = { basePrice: string; cycleDiscounts: RebasedCycleDiscount[] }

const fixedOff = (basePrice: string, amount: string, currencyCode: string) =>
  cycleUnitPrice(
    {
      basePrice,
      cycleDiscounts: [{ adjustmentType: 'FIXED_AMOUNT', adjustmentValue: amount, afterCycle: 0 }],
    },
    1,
    currencyCode,
  )

/**
 * A line's pricing policy moved onto another variant's price (a variant swap that does not keep
 * a hand-set price): the base becomes `newBase`, and each cycle discount keeps what it gives the
 * customer. A percentage stays the percentage, a fixed amount off stays the amount; a fixed
 * cycle PRICE keeps its distance from the base (¥1,980 base at ¥1,782 on a ¥2,400 variant is
 * ¥2,202), so the plan's ¥198 off follows the new variant instead of charging the old variant's
 * price for it. Amounts are rounded as every billed amount is (`cycleUnitPrice`).
 */
export function rebasedPolicy(
  policy: LinePricingPolicy,
  newBase: string,
  currencyCode: string,
): RebasedPolicy {
  const basePrice = cycleUnitPrice({ basePrice: newBase, cycleDiscounts: [] }, 1, currencyCode)
  const cycleDiscounts = policy.cycleDiscounts.map((d): RebasedCycleDiscount => {
    const adjustmentValue =
      d.adjustmentType === 'PRICE'
        ? shiftedPrice(policy.basePrice, d.adjustmentValue, basePrice, currencyCode)
        : d.adjustmentValue
    const moved: CycleDiscount = { ...d, adjustmentValue }
    const computedPrice = cycleUnitPrice(
      { basePrice, cycleDiscounts: [{ ...moved, afterCycle: 0 }] },
      1,
      currencyCode,
    )
    return { ...moved, computedPrice }
  })
  return { basePrice, cycleDiscounts }
}

/** A fixed cycle price kept at its distance from the base: below it by the same, or above. */
function shiftedPrice(oldBase: string, oldPrice: string, newBase: string, currencyCode: string): string {
  const off = fixedOff(oldBase, oldPrice, currencyCode)
  if (Number(off) > 0 || Number(oldPrice) === Number(oldBase)) return fixedOff(newBase, off, currencyCode)
  const above = fixedOff(oldPrice, oldBase, currencyCode)
  return cycleTotal([{ unitPrice: newBase, quantity: 1 }], above, currencyCode)
}
