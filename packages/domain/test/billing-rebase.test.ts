import { describe, expect, it } from 'vitest'
import { cycleUnitPrice, type LinePricingPolicy } from '../src/billing/pricing.ts'
import { rebasedPolicy } from '../src/billing/rebase.ts'

const policy = (
  basePrice: string,
  ...cycleDiscounts: LinePricingPolicy['cycleDiscounts']
): LinePricingPolicy => ({
  basePrice,
  cycleDiscounts,
})

describe('rebasedPolicy: a swapped line keeps its plan discount on the new variant', () => {
  it('keeps a percentage and recomputes its price on the new base', () => {
    const rebased = rebasedPolicy(
      policy('1980', { adjustmentType: 'PERCENTAGE', adjustmentValue: '10', afterCycle: 0 }),
      '2400',
      'JPY',
    )
    expect(rebased).toEqual({
      basePrice: '2400',
      cycleDiscounts: [
        { adjustmentType: 'PERCENTAGE', adjustmentValue: '10', afterCycle: 0, computedPrice: '2160' },
      ],
    })
  })

  it('keeps a fixed amount off and a recurring step', () => {
    const rebased = rebasedPolicy(
      policy(
        '1980',
        { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '500', afterCycle: 0 },
        { adjustmentType: 'PERCENTAGE', adjustmentValue: '15', afterCycle: 1 },
      ),
      '999',
      'JPY',
    )
    expect(rebased.cycleDiscounts.map((d) => d.computedPrice)).toEqual(['499', '849'])
    expect(cycleUnitPrice(rebased, 1, 'JPY')).toBe('499')
    expect(cycleUnitPrice(rebased, 2, 'JPY')).toBe('849')
  })

  it('moves a fixed cycle price by the difference of the bases, never below zero', () => {
    const below = rebasedPolicy(
      policy('1980', { adjustmentType: 'PRICE', adjustmentValue: '1782', afterCycle: 1 }),
      '2400',
      'JPY',
    )
    expect(below.cycleDiscounts[0]).toMatchObject({
      adjustmentValue: '2202',
      computedPrice: '2202',
      afterCycle: 1,
    })
    const cheap = rebasedPolicy(
      policy('1980', { adjustmentType: 'PRICE', adjustmentValue: '980', afterCycle: 0 }),
      '500',
      'JPY',
    )
    expect(cheap.cycleDiscounts[0]!.adjustmentValue).toBe('0')
    const above = rebasedPolicy(
      policy('1000', { adjustmentType: 'PRICE', adjustmentValue: '1200', afterCycle: 0 }),
      '1500',
      'JPY',
    )
    expect(above.cycleDiscounts[0]!.adjustmentValue).toBe('1700')
    const same = rebasedPolicy(
      policy('1000', { adjustmentType: 'PRICE', adjustmentValue: '1000', afterCycle: 0 }),
      '1500',
      'JPY',
    )
    expect(same.cycleDiscounts[0]!.adjustmentValue).toBe('1500')
  })

  it('rounds the base to the currency and leaves a policy without discounts at the new base', () => {
    expect(rebasedPolicy(policy('1980'), '2400.4', 'JPY')).toEqual({ basePrice: '2400', cycleDiscounts: [] })
    expect(rebasedPolicy(policy('10.00'), '12.345', 'USD').basePrice).toBe('12.35')
  })
})
