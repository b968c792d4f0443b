import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  customCycleDiscountsOf,
  discountFieldsOf,
  linePolicyOf,
  newPlanForm,
  planCyclePrice,
  platformAmount,
  pricingPoliciesOf,
  type SellingPlanForm,
  withCustomCycleDiscounts,
} from '../src/index.ts'

const plan = (patch: Partial<SellingPlanForm>): SellingPlanForm => ({ ...newPlanForm('定期便'), ...patch })

describe('platformAmount: JPY fixed values become whole yen (spec §5), half-up', () => {
  it.each<[number | string, string, string]>([
    [300, 'JPY', '300'],
    [300.4, 'JPY', '300'],
    [300.49, 'JPY', '300'],
    [300.5, 'JPY', '301'], // half-up
    [299.5, 'JPY', '300'],
    [0.4, 'JPY', '0'],
    [0.5, 'JPY', '1'],
    [0, 'JPY', '0'],
    ['1980.0', 'JPY', '1980'], // platform decimal text
    [1234.005, 'JPY', '1234'],
    [1e21, 'JPY', '1000000000000000000000'],
    // Other currencies keep their minor digits by the same rule.
    [12.345, 'USD', '12.35'],
    [12.3, 'USD', '12.30'],
  ])('%s %s → %s', (value, currency, expected) => {
    expect(platformAmount(value, currency)).toBe(expected)
  })

  it('is whole, within half a yen, idempotent and equal to a BigInt half-up oracle (fast-check)', () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 10n ** 12n), fc.integer({ min: 0, max: 4 }), (units, scale) => {
        const text =
          scale === 0
            ? String(units)
            : `${units / 10n ** BigInt(scale)}.${String(units % 10n ** BigInt(scale)).padStart(scale, '0')}`
        const result = platformAmount(text, 'JPY')
        expect(result).toMatch(/^(0|[1-9][0-9]*)$/)
        // Oracle: floor(x + 1/2) on the exact fraction units / 10^scale.
        const den = 10n ** BigInt(scale)
        expect(BigInt(result)).toBe((2n * units + den) / (2n * den))
        expect(platformAmount(result, 'JPY')).toBe(result)
      }),
      { numRuns: 3000 },
    )
  })
})

describe('pricingPoliciesOf: what the platform is sent per discount type', () => {
  it('none: no policy', () => {
    expect(pricingPoliciesOf(plan({ discountType: 'noDiscount' }), 'JPY')).toEqual([])
  })
  it('fixed: one fixed policy, the amount in whole yen', () => {
    expect(
      pricingPoliciesOf(
        plan({ discountType: 'fixedDiscount', valueType: 'FIXED_AMOUNT', initialValue: 300.5 }),
        'JPY',
      ),
    ).toEqual([{ fixed: { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: { fixedValue: '301' } } }])
  })
  it('recurring: fixed initial, recurring later after the cycle', () => {
    expect(
      pricingPoliciesOf(
        plan({
          discountType: 'recurringDiscount',
          valueType: 'PERCENTAGE',
          initialValue: 20,
          laterValue: 10.5,
          afterCycle: 2,
        }),
        'JPY',
      ),
    ).toEqual([
      { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 20 } } },
      { recurring: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 10.5 }, afterCycle: 2 } },
    ])
  })
  it('multi: its cycle-1 rule as the one fixed policy (checkout charges cycle 1), else 0% off', () => {
    const rules = [
      { cycle: 3, value: 100.4 },
      { cycle: 1, value: 500 },
    ]
    const form = plan({
      discountType: 'recurringMultiDiscount',
      valueType: 'FIXED_AMOUNT',
      cycleDiscounts: rules,
    })
    expect(pricingPoliciesOf(form, 'JPY')).toEqual([
      { fixed: { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: { fixedValue: '500' } } },
    ])
    expect(customCycleDiscountsOf(form, 'JPY')).toEqual([
      { cycle: 1, adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '500' },
      { cycle: 3, adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '100' },
    ])
    const withoutFirst = { ...form, cycleDiscounts: [{ cycle: 2, value: 100 }] }
    // A 0% policy, so the line checkout makes has a base price for the later rules (issue 22).
    expect(pricingPoliciesOf(withoutFirst, 'JPY')).toEqual([
      { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 0 } } },
    ])
  })
})

describe('planCyclePrice: the unit price of each cycle, per discount type (base ¥1,980)', () => {
  const none = plan({ discountType: 'noDiscount' })
  const fixed10 = plan({ discountType: 'fixedDiscount', valueType: 'PERCENTAGE', initialValue: 10 })
  const fixed300 = plan({ discountType: 'fixedDiscount', valueType: 'FIXED_AMOUNT', initialValue: 300 })
  const recurring = plan({
    discountType: 'recurringDiscount',
    valueType: 'PERCENTAGE',
    initialValue: 20,
    laterValue: 10,
    afterCycle: 1,
  })
  const recurringAfter3 = { ...recurring, afterCycle: 3 }
  const multi = plan({
    discountType: 'recurringMultiDiscount',
    valueType: 'PERCENTAGE',
    cycleDiscounts: [
      { cycle: 1, value: 30 },
      { cycle: 2, value: 20 },
      { cycle: 4, value: 5 },
    ],
  })
  const multiFrom3 = plan({
    discountType: 'recurringMultiDiscount',
    valueType: 'PRICE',
    cycleDiscounts: [{ cycle: 3, value: 1500.5 }],
  })
  it.each<[string, SellingPlanForm, string[]]>([
    ['none', none, ['1980', '1980', '1980', '1980', '1980']],
    ['fixed 10%', fixed10, ['1782', '1782', '1782', '1782', '1782']],
    ['fixed ¥300 off', fixed300, ['1680', '1680', '1680', '1680', '1680']],
    ['recurring 20% then 10% from cycle 2', recurring, ['1584', '1782', '1782', '1782', '1782']],
    ['recurring 20% then 10% from cycle 4', recurringAfter3, ['1584', '1584', '1584', '1782', '1782']],
    ['multi 30%, 20%, (20%), 5%', multi, ['1386', '1584', '1584', '1881', '1881']],
    [
      'multi from cycle 3: base before, ¥1,501 from then',
      multiFrom3,
      ['1980', '1980', '1501', '1501', '1501'],
    ],
  ])('%s', (_name, form, prices) => {
    expect([1, 2, 3, 4, 5].map((cycle) => planCyclePrice('1980', form, cycle, 'JPY'))).toEqual(prices)
  })

  // Oracle: the price each cycle must carry, straight from the form's meaning with BigInt
  // fractions (no code from src/): the rule in force is picked by hand per discount type.
  const oPrice = (base: bigint, form: SellingPlanForm, cycle: number): bigint => {
    const apply = (type: string, value: number): [bigint, bigint] => {
      const v = BigInt(Math.round(value * 100))
      if (type === 'PERCENTAGE') return [base * (10000n - v), 10000n]
      if (type === 'FIXED_AMOUNT') {
        const whole = (v + 50n) / 100n
        return [base > whole ? base - whole : 0n, 1n]
      }
      return [(v + 50n) / 100n, 1n]
    }
    let price: [bigint, bigint] = [base, 1n]
    if (form.discountType === 'fixedDiscount') price = apply(form.valueType!, form.initialValue!)
    if (form.discountType === 'recurringDiscount')
      price = apply(form.valueType!, cycle > form.afterCycle! ? form.laterValue! : form.initialValue!)
    if (form.discountType === 'recurringMultiDiscount') {
      const inForce = form.cycleDiscounts
        .filter((r) => r.cycle! <= cycle)
        .sort((a, b) => b.cycle! - a.cycle!)[0]
      if (inForce) price = apply(form.valueType!, inForce.value!)
    }
    const [num, den] = price
    return (2n * num + den) / (2n * den) // half-up
  }

  const valueType = fc.constantFrom('PERCENTAGE', 'FIXED_AMOUNT', 'PRICE' as const)
  const percentOrAmount = (type: string) =>
    type === 'PERCENTAGE'
      ? fc.integer({ min: 0, max: 10000 }).map((n) => n / 100)
      : fc.integer({ min: 0, max: 500000 }).map((n) => n / 100)
  const formArb: fc.Arbitrary<SellingPlanForm> = valueType.chain((type) =>
    fc.oneof(
      fc.constant(plan({ discountType: 'noDiscount' })),
      percentOrAmount(type).map((v) =>
        plan({ discountType: 'fixedDiscount', valueType: type, initialValue: v }),
      ),
      fc
        .tuple(percentOrAmount(type), percentOrAmount(type), fc.integer({ min: 1, max: 6 }))
        .map(([a, b, after]) =>
          plan({
            discountType: 'recurringDiscount',
            valueType: type,
            initialValue: a,
            laterValue: b,
            afterCycle: after,
          }),
        ),
      fc
        .uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 5 })
        .chain((cycles) =>
          fc.tuple(
            fc.constant(cycles),
            fc.array(percentOrAmount(type), { minLength: cycles.length, maxLength: cycles.length }),
          ),
        )
        .map(([cycles, values]) =>
          plan({
            discountType: 'recurringMultiDiscount',
            valueType: type,
            cycleDiscounts: cycles.map((cycle, i) => ({ cycle, value: values[i]! })),
          }),
        ),
    ),
  )

  it('equals the oracle for every discount type and cycle (fast-check)', () => {
    fc.assert(
      fc.property(fc.bigInt(0n, 10n ** 7n), formArb, fc.integer({ min: 1, max: 12 }), (base, form, cycle) => {
        expect(planCyclePrice(String(base), form, cycle, 'JPY')).toBe(String(oPrice(base, form, cycle)))
      }),
      { numRuns: 5000 },
    )
  })

  it('reads back to the same discount fields from what is stored (fast-check)', () => {
    fc.assert(
      fc.property(formArb, (form) => {
        const policies = pricingPoliciesOf(form, 'JPY')
        const rules = customCycleDiscountsOf(form, 'JPY')
        const stored = policies.map((p) => {
          const part = 'fixed' in p ? { ...p.fixed, afterCycle: null } : p.recurring
          const v = part.adjustmentValue
          return {
            afterCycle: part.afterCycle,
            adjustmentType: part.adjustmentType,
            value: 'percentage' in v ? v.percentage : Number(v.fixedValue),
          }
        })
        const back = { ...form, ...discountFieldsOf(stored, rules) }
        // Same prices on every cycle; the same type (but a fixed plan whose amounts round is the same plan).
        expect(back.discountType).toBe(form.discountType)
        for (let cycle = 1; cycle <= 8; cycle++)
          expect(planCyclePrice('1980', back, cycle, 'JPY')).toBe(planCyclePrice('1980', form, cycle, 'JPY'))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('withCustomCycleDiscounts: the app rules over a line policy', () => {
  const own = linePolicyOf('1000', [
    { fixed: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 10 } } },
    { recurring: { adjustmentType: 'PERCENTAGE', adjustmentValue: { percentage: 50 }, afterCycle: 5 } },
  ])
  it('keeps the line policy without rules', () => {
    expect(withCustomCycleDiscounts(own, [])).toBe(own)
  })
  it('rules from cycle 3: the own 10% before, the rules from then, the own cycle-6 discount dropped', () => {
    const merged = withCustomCycleDiscounts(own, [
      { cycle: 3, adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '100' },
      { cycle: 4, adjustmentType: 'PRICE', adjustmentValue: '700' },
    ])
    expect(merged.cycleDiscounts).toEqual([
      { adjustmentType: 'FIXED_AMOUNT', adjustmentValue: '100', afterCycle: 2 },
      { adjustmentType: 'PRICE', adjustmentValue: '700', afterCycle: 3 },
      { adjustmentType: 'PERCENTAGE', adjustmentValue: '10', afterCycle: 0 },
    ])
  })
})
