import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type CycleDiscount,
  cycleDiscountFor,
  cycleTotal,
  cycleUnitPrice,
  discountTypeOf,
  type LinePricingPolicy,
  repricedLines,
} from '../src/index.ts'

const pct = (value: string, afterCycle = 0): CycleDiscount => ({
  adjustmentType: 'PERCENTAGE',
  adjustmentValue: value,
  afterCycle,
})
const off = (value: string, afterCycle = 0): CycleDiscount => ({
  adjustmentType: 'FIXED_AMOUNT',
  adjustmentValue: value,
  afterCycle,
})
const price = (value: string, afterCycle = 0): CycleDiscount => ({
  adjustmentType: 'PRICE',
  adjustmentValue: value,
  afterCycle,
})
const line = (basePrice: string, ...cycleDiscounts: CycleDiscount[]): LinePricingPolicy => ({
  basePrice,
  cycleDiscounts,
})

describe('cycleUnitPrice', () => {
  it.each<[string, LinePricingPolicy, number, string, string]>([
    ['no discount', line('1980'), 1, 'JPY', '1980'],
    ['platform decimal text', line('1980.0'), 1, 'JPY', '1980'],
    ['10% of 1980', line('1980', pct('10')), 1, 'JPY', '1782'],
    ['15% of 999 = 849.15', line('999', pct('15')), 1, 'JPY', '849'],
    ['50% of 999 = 499.5, half-up', line('999', pct('50')), 1, 'JPY', '500'],
    ['5% of 1990 = 1890.5, half-up', line('1990', pct('5')), 1, 'JPY', '1891'],
    ['12.5% of 1980 = 1732.5', line('1980', pct('12.5')), 1, 'JPY', '1733'],
    ['100% off', line('1980', pct('100')), 1, 'JPY', '0'],
    ['0% off', line('1980', pct('0.0')), 1, 'JPY', '1980'],
    ['PRICE 100.5 -> 101', line('1980', price('100.5')), 1, 'JPY', '101'],
    ['PRICE 100.49 -> 100', line('1980', price('100.49')), 1, 'JPY', '100'],
    ['FIXED_AMOUNT 300', line('1980', off('300')), 1, 'JPY', '1680'],
    ['FIXED_AMOUNT above the price floors at 0', line('1980', off('2500')), 1, 'JPY', '0'],
    ['FIXED_AMOUNT 0.5 -> 1979.5 -> 1980', line('1980', off('0.5')), 1, 'JPY', '1980'],
    // USD: cents, same half-up rule.
    ['USD 15% of 19.99 = 16.9915', line('19.99', pct('15')), 1, 'USD', '16.99'],
    ['USD 10% of 9.99 = 8.991', line('9.99', pct('10')), 1, 'USD', '8.99'],
    ['USD PRICE 9.995 -> 10.00', line('19.99', price('9.995')), 1, 'USD', '10.00'],
    ['USD 12.5% of 0.04 = 0.035 (a float says 0.03499...)', line('0.04', pct('12.5')), 1, 'USD', '0.04'],
    ['USD whole dollars keep two digits', line('10'), 1, 'USD', '10.00'],
    ['BHD has three digits', line('1.2345'), 1, 'BHD', '1.235'],
    ['beyond Number precision', line('12345678901234567890', pct('10')), 1, 'JPY', '11111111011111111101'],
    // afterCycle: 0 applies from cycle 1, N applies from cycle N + 1.
    ['first policy on cycle 1', line('1980', pct('10'), pct('20', 3)), 1, 'JPY', '1782'],
    ['first policy through cycle 3', line('1980', pct('10'), pct('20', 3)), 3, 'JPY', '1782'],
    ['recurring policy from cycle 4', line('1980', pct('10'), pct('20', 3)), 4, 'JPY', '1584'],
    ['recurring policy later on', line('1980', pct('10'), pct('20', 3)), 40, 'JPY', '1584'],
    ['afterCycle 1: cycle 1 at full price', line('1980', off('200', 1)), 1, 'JPY', '1980'],
    ['afterCycle 1: cycle 2 discounted', line('1980', off('200', 1)), 2, 'JPY', '1780'],
    ['listed out of order, cycle 2', line('1980', price('1500', 2), pct('10')), 2, 'JPY', '1782'],
    ['listed out of order, cycle 3', line('1980', price('1500', 2), pct('10')), 3, 'JPY', '1500'],
    ['same afterCycle twice: the first listed', line('1980', pct('10'), pct('20')), 1, 'JPY', '1782'],
  ])('%s', (_label, policy, cycle, currency, expected) => {
    expect(cycleUnitPrice(policy, cycle, currency)).toBe(expected)
  })

  it.each<[string, LinePricingPolicy, number, string]>([
    ['negative base', line('-1'), 1, 'JPY'],
    ['base not a number', line('abc'), 1, 'JPY'],
    ['percentage above 100', line('1980', pct('100.01')), 1, 'JPY'],
    ['negative percentage', line('1980', pct('-5')), 1, 'JPY'],
    ['negative amount', line('1980', off('-5')), 1, 'JPY'],
    ['cycle 0', line('1980'), 0, 'JPY'],
    ['cycle 1.5', line('1980'), 1.5, 'JPY'],
    ['afterCycle -1', line('1980', pct('10', -1)), 1, 'JPY'],
    [
      'unknown adjustment',
      line('1980', { adjustmentType: 'BOGO' as never, adjustmentValue: '1', afterCycle: 0 }),
      1,
      'JPY',
    ],
    ['malformed currency', line('1980'), 1, 'YEN!'],
  ])('throws RangeError: %s', (_label, policy, cycle, currency) => {
    expect(() => cycleUnitPrice(policy, cycle, currency)).toThrow(RangeError)
  })

  it('cycleDiscountFor names the discount in force, or null before the first', () => {
    const discounts = [pct('10', 1), pct('20', 3)]
    expect(cycleDiscountFor(discounts, 1)).toBeNull()
    expect(cycleDiscountFor(discounts, 2)).toBe(discounts[0])
    expect(cycleDiscountFor(discounts, 4)).toBe(discounts[1])
  })
})

describe('cycleTotal', () => {
  it.each<[string, Array<{ unitPrice: string; quantity: number }>, string | null, string, string]>([
    [
      'lines and delivery',
      [
        { unitPrice: '1782', quantity: 2 },
        { unitPrice: '849', quantity: 1 },
      ],
      '500',
      'JPY',
      '4913',
    ],
    [
      'no delivery price',
      [
        { unitPrice: '1782', quantity: 2 },
        { unitPrice: '849', quantity: 1 },
      ],
      null,
      'JPY',
      '4413',
    ],
    ['quantity 0 adds nothing', [{ unitPrice: '1782', quantity: 0 }], '500.0', 'JPY', '500'],
    ['delivery only', [], '800', 'JPY', '800'],
    ['nothing', [], null, 'JPY', '0'],
    ['nothing in USD', [], null, 'USD', '0.00'],
    [
      'USD 0.10 × 3 + 0.20 (floats say 0.5000000000000001)',
      [{ unitPrice: '0.10', quantity: 3 }],
      '0.20',
      'USD',
      '0.50',
    ],
    // One rounding, on the exact sum: 0.005 + 0.005 = 0.01 (rounding each line first would be 0.02).
    [
      'rounded once, USD',
      [
        { unitPrice: '0.005', quantity: 1 },
        { unitPrice: '0.005', quantity: 1 },
      ],
      null,
      'USD',
      '0.01',
    ],
    [
      'rounded once, JPY',
      [
        { unitPrice: '0.4', quantity: 1 },
        { unitPrice: '0.4', quantity: 1 },
      ],
      null,
      'JPY',
      '1',
    ],
    [
      'large quantities stay exact',
      [{ unitPrice: '9999999999.99', quantity: 1_000_000 }],
      null,
      'USD',
      '9999999999990000.00',
    ],
  ])('%s', (_label, lines, delivery, currency, expected) => {
    expect(cycleTotal(lines, delivery, currency)).toBe(expected)
  })

  it('refuses bad quantities and negative prices', () => {
    expect(() => cycleTotal([{ unitPrice: '100', quantity: -1 }], null, 'JPY')).toThrow(RangeError)
    expect(() => cycleTotal([{ unitPrice: '100', quantity: 1.5 }], null, 'JPY')).toThrow(RangeError)
    expect(() => cycleTotal([{ unitPrice: '-100', quantity: 1 }], null, 'JPY')).toThrow(RangeError)
    expect(() => cycleTotal([], '-1', 'JPY')).toThrow(RangeError)
  })
})

describe('discountTypeOf (spec §4)', () => {
  it.each<[number, string]>([
    [0, 'noDiscount'],
    [1, 'fixedDiscount'],
    [2, 'recurringDiscount'],
  ])('%i pricing policies -> %s', (count, expected) => {
    expect(discountTypeOf(count)).toBe(expected)
  })

  it.each([[3], [-1], [1.5]])('%d pricing policies throws RangeError', (count) => {
    expect(() => discountTypeOf(count)).toThrow(RangeError)
  })
})

// ---------------------------------------------------------------------------------------------
// Oracle: amounts as exact fractions num/den of BigInts, rounding half-up as
// floor((2·num·10^digits + den) / (2·den)). No decimal strings, no src/ helpers, no Intl.
// ---------------------------------------------------------------------------------------------

type Fraction = { num: bigint; den: bigint }
const DIGITS: Record<string, number> = { JPY: 0, KRW: 0, USD: 2, BHD: 3 }

function oParse(text: string): Fraction {
  const [int = '0', frac = ''] = text.split('.')
  return { num: BigInt(int + frac), den: 10n ** BigInt(frac.length) }
}

/** Half-up to `digits` places, as integer units of 10^-digits (amounts are never negative here). */
const oUnits = ({ num, den }: Fraction, digits: number): bigint =>
  (2n * num * 10n ** BigInt(digits) + den) / (2n * den)

function oText(units: bigint, digits: number): string {
  if (digits === 0) return units.toString()
  const text = units.toString().padStart(digits + 1, '0')
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`
}

function oPrice(policy: LinePricingPolicy, cycle: number): Fraction {
  const base = oParse(policy.basePrice)
  let inForce: CycleDiscount | null = null
  for (const d of policy.cycleDiscounts) {
    if (d.afterCycle >= cycle) continue
    if (inForce === null || d.afterCycle > inForce.afterCycle) inForce = d
  }
  if (inForce === null) return base
  const value = oParse(inForce.adjustmentValue)
  if (inForce.adjustmentType === 'PRICE') return value
  if (inForce.adjustmentType === 'PERCENTAGE') {
    return { num: base.num * (100n * value.den - value.num), den: base.den * value.den * 100n }
  }
  const num = base.num * value.den - value.num * base.den
  return num < 0n ? { num: 0n, den: 1n } : { num, den: base.den * value.den }
}

/** Decimal text from units and a scale, sometimes with the platform's trailing ".0". */
const decimalArb = (maxUnits: bigint, maxScale: number): fc.Arbitrary<string> =>
  fc
    .record({
      units: fc.bigInt(0n, maxUnits),
      scale: fc.integer({ min: 0, max: maxScale }),
      pad: fc.boolean(),
    })
    .map(({ units, scale, pad }) => {
      const text = scale === 0 ? units.toString() : oText(units, scale)
      return pad ? `${text}${scale === 0 ? '.0' : '0'}` : text
    })
const percentArb = fc
  .record({ scale: fc.integer({ min: 0, max: 3 }), per: fc.integer({ min: 0, max: 100_000 }) })
  .map(({ scale, per }) => oText((BigInt(per) * 10n ** BigInt(scale)) / 1000n, scale))
const discountArb: fc.Arbitrary<CycleDiscount> = fc
  .record({
    adjustmentType: fc.constantFrom('PERCENTAGE', 'FIXED_AMOUNT', 'PRICE' as const),
    percent: percentArb,
    amount: decimalArb(10n ** 8n, 3),
    afterCycle: fc.integer({ min: 0, max: 8 }),
  })
  .map(({ adjustmentType, percent, amount, afterCycle }) => ({
    adjustmentType,
    adjustmentValue: adjustmentType === 'PERCENTAGE' ? percent : amount,
    afterCycle,
  }))
const currencyArb = fc.constantFrom('JPY', 'KRW', 'USD', 'BHD')
const cycleArb = fc.integer({ min: 1, max: 12 })

describe('repricedLines (the price the coming cycle must carry)', () => {
  // A recurring plan as the demo shop sells it: 10% off the first order, 5% off from the second.
  const recurring = line('1980', pct('10'), pct('5', 1))

  it('moves a line onto the recurring price for cycle 2, and leaves it there for cycle 3', () => {
    const lines = [{ id: 'L1', currentPrice: '1782.0', pricingPolicy: recurring }]
    expect(repricedLines(lines, 2, 'JPY')).toEqual([{ lineId: 'L1', from: '1782.0', to: '1881' }])
    expect(repricedLines([{ ...lines[0]!, currentPrice: '1881.0' }], 3, 'JPY')).toEqual([])
  })

  it('compares prices as decimals, not as text', () => {
    expect(
      repricedLines([{ id: 'L1', currentPrice: '1782.00', pricingPolicy: recurring }], 1, 'JPY'),
    ).toEqual([])
    expect(
      repricedLines([{ id: 'L1', currentPrice: '12.3', pricingPolicy: line('12.30') }], 5, 'USD'),
    ).toEqual([])
  })

  it('leaves lines without a pricing policy alone, whatever their price', () => {
    expect(repricedLines([{ id: 'L1', currentPrice: '1', pricingPolicy: null }], 2, 'JPY')).toEqual([])
  })

  it('reprices each line on its own policy', () => {
    const lines = [
      { id: 'A', currentPrice: '1000', pricingPolicy: line('1000', off('100', 2)) },
      { id: 'B', currentPrice: '500', pricingPolicy: line('500', price('450', 1)) },
      { id: 'C', currentPrice: '700', pricingPolicy: null },
    ]
    expect(repricedLines(lines, 2, 'JPY')).toEqual([{ lineId: 'B', from: '500', to: '450' }])
    expect(repricedLines(lines, 3, 'JPY')).toEqual([
      { lineId: 'A', from: '1000', to: '900' },
      { lineId: 'B', from: '500', to: '450' },
    ])
  })

  it('after repricing, nothing is left to reprice for the same cycle (fast-check)', () => {
    fc.assert(
      fc.property(
        decimalArb(10n ** 8n, 2),
        fc.array(discountArb, { maxLength: 3 }),
        decimalArb(10n ** 8n, 2),
        cycleArb,
        (basePrice, cycleDiscounts, currentPrice, cycle) => {
          const policy = { basePrice, cycleDiscounts }
          const changes = repricedLines([{ id: 'L', currentPrice, pricingPolicy: policy }], cycle, 'JPY')
          const settled = changes[0]?.to ?? currentPrice
          expect(
            repricedLines([{ id: 'L', currentPrice: settled, pricingPolicy: policy }], cycle, 'JPY'),
          ).toEqual([])
          if (changes.length === 1) expect(changes[0]!.to).toBe(cycleUnitPrice(policy, cycle, 'JPY'))
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('prices against the BigInt oracle', () => {
  it('cycleUnitPrice equals the oracle', () => {
    fc.assert(
      fc.property(
        decimalArb(10n ** 10n, 4),
        fc.array(discountArb, { maxLength: 4 }),
        cycleArb,
        currencyArb,
        (basePrice, cycleDiscounts, cycle, currency) => {
          const digits = DIGITS[currency] as number
          const expected = oText(oUnits(oPrice({ basePrice, cycleDiscounts }, cycle), digits), digits)
          expect(cycleUnitPrice({ basePrice, cycleDiscounts }, cycle, currency)).toBe(expected)
        },
      ),
      { numRuns: 5000 },
    )
  })

  it('percentage and fixed discounts keep 0 <= price <= base (base in minor units)', () => {
    fc.assert(
      fc.property(
        fc.bigInt(0n, 10n ** 10n),
        fc.array(
          discountArb.filter((d) => d.adjustmentType !== 'PRICE'),
          { maxLength: 3 },
        ),
        cycleArb,
        currencyArb,
        (baseUnits, cycleDiscounts, cycle, currency) => {
          const digits = DIGITS[currency] as number
          const basePrice = oText(baseUnits, digits)
          const result = oParse(cycleUnitPrice({ basePrice, cycleDiscounts }, cycle, currency))
          const units = (result.num * 10n ** BigInt(digits)) / result.den
          expect(units >= 0n).toBe(true)
          expect(units <= baseUnits).toBe(true)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('a larger percentage never gives a higher price', () => {
    fc.assert(
      fc.property(
        decimalArb(10n ** 9n, 2),
        percentArb,
        percentArb,
        currencyArb,
        (basePrice, p, q, currency) => {
          const [low, high] = Number(p) <= Number(q) ? [p, q] : [q, p]
          const at = (percent: string) => oParse(cycleUnitPrice(line(basePrice, pct(percent)), 1, currency))
          const a = at(low)
          const b = at(high)
          expect(b.num * a.den <= a.num * b.den).toBe(true)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('cycleTotal equals the oracle sum, rounded once', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ unitPrice: decimalArb(10n ** 9n, 4), quantity: fc.integer({ min: 0, max: 1000 }) }),
          {
            maxLength: 6,
          },
        ),
        fc.option(decimalArb(10n ** 6n, 3), { nil: null }),
        currencyArb,
        (lines, delivery, currency) => {
          const digits = DIGITS[currency] as number
          // Sum over a common denominator of 10^8 (every generated amount has at most 4 places).
          const den = 10n ** 8n
          const scaled = (f: Fraction) => (f.num * den) / f.den
          let num = delivery === null ? 0n : scaled(oParse(delivery))
          for (const l of lines) num += scaled(oParse(l.unitPrice)) * BigInt(l.quantity)
          expect(cycleTotal(lines, delivery, currency)).toBe(oText(oUnits({ num, den }, digits), digits))
        },
      ),
      { numRuns: 3000 },
    )
  })
})
