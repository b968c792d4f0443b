import { describe, expect, it } from 'vitest'
import {
  isCountedOrder,
  type LtvOrder,
  lifetimeValues,
  ltvRangeParts,
  maxLtv,
  monthNumber,
  multiCurrencyMessage,
} from '../src/index.ts'

const TZ = 'Asia/Tokyo'
const order = (patch: Partial<LtvOrder>): LtvOrder => ({
  customerId: '1',
  contractId: '100',
  amount: 1980,
  currencyCode: 'JPY',
  test: false,
  cancelledAt: null,
  createdAt: new Date('2026-05-10T03:00:00Z'),
  ...patch,
})

describe('lifetimeValues', () => {
  it('sums successful subscription orders per customer, highest first', () => {
    const { totals, errors } = lifetimeValues(
      [
        order({}),
        order({}),
        order({ customerId: '2', amount: 5000 }),
        order({ customerId: '3', amount: 100 }),
      ],
      {},
      TZ,
    )
    expect(totals).toEqual([
      { customerId: '2', currencyCode: 'JPY', amount: 5000, orderCount: 1 },
      { customerId: '1', currencyCode: 'JPY', amount: 3960, orderCount: 2 },
      { customerId: '3', currencyCode: 'JPY', amount: 100, orderCount: 1 },
    ])
    expect(errors).toEqual([])
  })

  it('never adds currencies together: one total per currency and an error', () => {
    const { totals, errors } = lifetimeValues(
      [order({}), order({ amount: 12.5, currencyCode: 'USD' }), order({ amount: 7.25, currencyCode: 'USD' })],
      {},
      TZ,
    )
    expect(totals).toEqual([
      { customerId: '1', currencyCode: 'JPY', amount: 1980, orderCount: 1 },
      { customerId: '1', currencyCode: 'USD', amount: 19.75, orderCount: 2 },
    ])
    expect(errors).toEqual([
      { customerId: '1', currencyCodes: ['JPY', 'USD'], message: multiCurrencyMessage(['JPY', 'USD']) },
    ])
    expect(errors[0]!.message).toBe('複数の通貨（JPY・USD）で購入があるため、通貨ごとに集計しています')
  })

  it('takes refunds off, leaves out test, cancelled and one-off orders', () => {
    const { totals } = lifetimeValues(
      [
        order({ refunded: 980 }),
        order({ test: true, amount: 99999 }),
        order({ cancelledAt: new Date('2026-05-11T00:00:00Z'), amount: 88888 }),
        order({ contractId: null, amount: 77777 }),
      ],
      {},
      TZ,
    )
    expect(totals).toEqual([{ customerId: '1', currencyCode: 'JPY', amount: 1000, orderCount: 1 }])
    expect(isCountedOrder({ contractId: '1', test: false, cancelledAt: null })).toBe(true)
  })

  it('a range cuts a customer history at Japan-time day boundaries (both ends inclusive)', () => {
    const orders = [
      order({ createdAt: new Date('2026-03-31T14:59:59Z'), amount: 1 }), // 2026-03-31 23:59:59 JST
      order({ createdAt: new Date('2026-03-31T15:00:00Z'), amount: 10 }), // 2026-04-01 00:00 JST
      order({ createdAt: new Date('2026-04-30T14:59:59Z'), amount: 100 }), // 2026-04-30 23:59:59 JST
      order({ createdAt: new Date('2026-04-30T15:00:00Z'), amount: 1000 }), // 2026-05-01 00:00 JST
    ]
    expect(lifetimeValues(orders, { from: '2026-04-01', to: '2026-04-30' }, TZ).totals[0]).toMatchObject({
      amount: 110,
      orderCount: 2,
    })
    expect(lifetimeValues(orders, { to: '2026-03-31' }, TZ).totals[0]!.amount).toBe(1)
    expect(lifetimeValues(orders, { from: '2026-05-01' }, TZ).totals[0]!.amount).toBe(1000)
    expect(lifetimeValues(orders, { from: '2027-01-01' }, TZ).totals).toEqual([])
  })

  it('refunds: a partial refund lowers the total by what was refunded, a full one to 0 (still one order)', () => {
    const { totals } = lifetimeValues(
      [
        order({ amount: 3980, refunded: 1000 }),
        order({ customerId: '2', amount: 1980, refunded: 1980 }),
        order({ customerId: '2', amount: 500 }),
      ],
      {},
      TZ,
    )
    expect(totals).toEqual([
      { customerId: '1', currencyCode: 'JPY', amount: 2980, orderCount: 1 },
      { customerId: '2', currencyCode: 'JPY', amount: 500, orderCount: 2 },
    ])
  })

  it('a refund made in another month comes off the range of its order, not of the refund', () => {
    // The April order was refunded in May: the April range holds it net, May holds only its own.
    const orders = [
      order({ createdAt: new Date('2026-04-10T03:00:00Z'), amount: 1980, refunded: 980 }),
      order({ createdAt: new Date('2026-05-10T03:00:00Z'), amount: 1980 }),
    ]
    expect(lifetimeValues(orders, { from: '2026-04-01', to: '2026-04-30' }, TZ).totals).toEqual([
      { customerId: '1', currencyCode: 'JPY', amount: 1000, orderCount: 1 },
    ])
    expect(lifetimeValues(orders, { from: '2026-05-01', to: '2026-05-31' }, TZ).totals[0]!.amount).toBe(1980)
    expect(lifetimeValues(orders, { from: '2026-04-01', to: '2026-05-31' }, TZ).totals[0]!.amount).toBe(2980)
  })

  it('refunds in two currencies come off their own currency only', () => {
    const { totals, errors } = lifetimeValues(
      [
        order({ amount: 1980, refunded: 500 }),
        order({ amount: 20, refunded: 7.35, currencyCode: 'USD' }),
        order({ amount: 10.1, currencyCode: 'USD' }),
      ],
      {},
      TZ,
    )
    expect(totals).toEqual([
      { customerId: '1', currencyCode: 'JPY', amount: 1480, orderCount: 1 },
      { customerId: '1', currencyCode: 'USD', amount: 22.75, orderCount: 2 },
    ])
    expect(errors.map((e) => e.currencyCodes)).toEqual([['JPY', 'USD']])
  })

  it('rounds per currency (JPY whole yen, USD cents)', () => {
    expect(
      lifetimeValues(
        [order({ amount: 0.1, currencyCode: 'USD' }), order({ amount: 0.2, currencyCode: 'USD' })],
        {},
        TZ,
      ).totals[0]!.amount,
    ).toBe(0.3)
  })

  it('maxLtv is the top total of the currency, at least 1', () => {
    const { totals } = lifetimeValues(
      [order({ amount: 500 }), order({ customerId: '2', amount: 900, currencyCode: 'USD' })],
      {},
      TZ,
    )
    expect(maxLtv(totals, 'JPY')).toBe(500)
    expect(maxLtv([], 'JPY')).toBe(1)
  })
})

describe('ltvRangeParts', () => {
  it('splits a range into whole months and edge days, covering each day once', () => {
    expect(ltvRangeParts('2025-03-01', '2026-03-01')).toEqual({
      months: { first: monthNumber('2025-03-01'), last: monthNumber('2026-02-01') },
      edges: [{ from: '2026-03-01', to: '2026-03-01' }],
    })
    expect(ltvRangeParts('2025-01-15', '2025-12-31')).toEqual({
      months: { first: monthNumber('2025-02-01'), last: monthNumber('2025-12-01') },
      edges: [{ from: '2025-01-15', to: '2025-01-31' }],
    })
    expect(ltvRangeParts('2024-02-01', '2024-02-29')).toEqual({
      months: { first: monthNumber('2024-02-01'), last: monthNumber('2024-02-01') },
      edges: [],
    })
    expect(ltvRangeParts('2024-02-02', '2024-02-29')).toEqual({
      months: null,
      edges: [{ from: '2024-02-02', to: '2024-02-29' }],
    })
    expect(ltvRangeParts('2025-12-20', '2026-01-10')).toEqual({
      months: null,
      edges: [{ from: '2025-12-20', to: '2026-01-10' }],
    })
    expect(monthNumber('2026-01-31') - monthNumber('2025-12-01')).toBe(1)
  })
})
