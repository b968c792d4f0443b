import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  activeBefore,
  activeSeries,
  changeRatio,
  cumulativeSeries,
  dailyMeasures,
  dailySales,
  dailySeries,
  type HistoryEvent,
  lifetimeValues,
  netAmount,
  type OrderFact,
} from '../src/index.ts'

const TOKYO = 'Asia/Tokyo'
const created = (id: string, at: string): HistoryEvent => ({
  contractId: id,
  type: 'created',
  occurredAt: at,
})
const moved = (id: string, at: string, from: string, to: string, inferred = false): HistoryEvent => ({
  contractId: id,
  type: 'status_changed',
  occurredAt: at,
  payload: inferred ? { from, to, inferred } : { from, to },
})
const failed = (id: string, at: string): HistoryEvent => ({
  contractId: id,
  type: 'billing_failed',
  occurredAt: at,
})
const order = (o: Partial<OrderFact> & { createdAt: string }): OrderFact => ({
  contractId: '1',
  currencyCode: 'JPY',
  amount: 1980,
  test: false,
  cancelledAt: null,
  ...o,
})

describe('daily measures', () => {
  it('a contract paused and resumed on the same day: one pause, active unchanged', () => {
    const days = dailyMeasures(
      [
        created('1', '2026-03-01T01:00:00Z'),
        moved('1', '2026-03-05T01:00:00Z', 'ACTIVE', 'PAUSED'),
        moved('1', '2026-03-05T05:00:00Z', 'PAUSED', 'ACTIVE'),
      ],
      TOKYO,
    )
    expect(days.get('2026-03-05')).toEqual({ created: 0, cancelled: 0, paused: 1, failed: 0, activeDelta: 0 })
    const active = activeSeries(
      activeBefore(days, '2026-03-04'),
      new Map([...days].map(([d, m]) => [d, m.activeDelta])),
      '2026-03-04',
      '2026-03-06',
    )
    expect(active.map((a) => a.count)).toEqual([1, 1, 1])
  })

  it('cancelled and reactivated: one cancellation, active again the next day', () => {
    const days = dailyMeasures(
      [
        created('1', '2026-03-01T01:00:00Z'),
        moved('1', '2026-03-02T01:00:00Z', 'ACTIVE', 'CANCELLED'),
        moved('1', '2026-03-03T01:00:00Z', 'CANCELLED', 'ACTIVE'),
      ],
      TOKYO,
    )
    const deltas = new Map([...days].map(([d, m]) => [d, m.activeDelta]))
    expect(activeSeries(0, deltas, '2026-03-01', '2026-03-03').map((a) => a.count)).toEqual([1, 0, 1])
    expect(dailySeries(days, 'cancelled', '2026-03-01', '2026-03-03').map((d) => d.count)).toEqual([0, 1, 0])
  })

  it('the day boundary is 00:00 in Japan whatever the server zone (TZ=UTC in tests)', () => {
    // 14:59:59Z is 23:59:59 on the 1st in Tokyo; 15:00:00Z is 00:00 on the 2nd.
    const days = dailyMeasures(
      [created('1', '2026-03-01T14:59:59Z'), created('2', '2026-03-01T15:00:00Z')],
      TOKYO,
    )
    expect(days.get('2026-03-01')?.created).toBe(1)
    expect(days.get('2026-03-02')?.created).toBe(1)
    // The same instants in New York fall on the same (earlier) day.
    expect(
      dailyMeasures(
        [created('1', '2026-03-01T14:59:59Z'), created('2', '2026-03-01T15:00:00Z')],
        'America/New_York',
      ).get('2026-03-01')?.created,
    ).toBe(2)
  })

  it('a day with no events answers 0 for every measure', () => {
    const days = dailyMeasures([created('1', '2026-03-01T01:00:00Z')], TOKYO)
    for (const measure of ['created', 'cancelled', 'paused', 'failed'] as const) {
      expect(dailySeries(days, measure, '2026-03-10', '2026-03-10')).toEqual([
        { date: '2026-03-10', count: 0 },
      ])
    }
  })

  it('payment failures: each failed charge, and a contract first seen FAILED once; a real move to FAILED is not counted again', () => {
    const days = dailyMeasures(
      [
        created('1', '2026-03-01T01:00:00Z'),
        failed('1', '2026-03-02T01:00:00Z'),
        failed('1', '2026-03-02T03:00:00Z'),
        moved('1', '2026-03-02T03:00:00Z', 'ACTIVE', 'FAILED'),
        created('2', '2026-01-01T01:00:00Z'),
        moved('2', '2026-03-02T04:00:00Z', 'ACTIVE', 'FAILED', true),
      ],
      TOKYO,
    )
    expect(days.get('2026-03-02')?.failed).toBe(3)
    expect(days.get('2026-03-02')?.activeDelta).toBe(-2)
  })

  it('sales: per currency, never mixed; test and cancelled orders and orders of no contract excluded', () => {
    const sales = dailySales(
      [
        order({ createdAt: '2026-03-01T01:00:00Z', amount: 1980 }),
        order({ createdAt: '2026-03-01T02:00:00Z', amount: 12.5, currencyCode: 'USD' }),
        order({ createdAt: '2026-03-01T03:00:00Z', amount: 500, test: true }),
        order({ createdAt: '2026-03-01T03:00:00Z', amount: 700, cancelledAt: '2026-03-02T00:00:00Z' }),
        order({ createdAt: '2026-03-01T03:00:00Z', amount: 900, contractId: null }),
      ],
      TOKYO,
    )
    expect(Object.fromEntries(sales)).toEqual({
      '2026-03-01|JPY': { amount: 1980, orders: 1 },
      '2026-03-01|USD': { amount: 12.5, orders: 1 },
    })
  })

  it('sales: refunds come off the day of their order, per currency; a full refund leaves the order counted at 0', () => {
    const sales = dailySales(
      [
        order({ createdAt: '2026-03-01T01:00:00Z', amount: 1980, refunded: 480 }),
        order({ createdAt: '2026-03-01T02:00:00Z', amount: 1980, refunded: 1980 }),
        order({ createdAt: '2026-03-01T02:00:00Z', amount: 12.5, refunded: 2.45, currencyCode: 'USD' }),
        order({ createdAt: '2026-04-01T02:00:00Z', amount: 1980 }),
      ],
      TOKYO,
    )
    expect(Object.fromEntries(sales)).toEqual({
      '2026-03-01|JPY': { amount: 1500, orders: 2 },
      '2026-03-01|USD': { amount: 10.05, orders: 1 },
      '2026-04-01|JPY': { amount: 1980, orders: 1 },
    })
    expect(netAmount({ amount: 1980, refunded: 480 })).toBe(1500)
    expect(netAmount({ amount: 1980 })).toBe(1980)
  })

  it('a range of daily sales adds up to the LTV totals of the same range (one net amount)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            customer: fc.integer({ min: 1, max: 5 }),
            day: fc.integer({ min: 0, max: 90 }),
            amount: fc.integer({ min: 1, max: 20000 }),
            refundedPart: fc.integer({ min: 0, max: 100 }),
            test: fc.boolean(),
            usd: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (rows) => {
          const facts = rows.map((r) => {
            const amount = r.usd ? r.amount / 100 : r.amount
            const refunded = Math.floor((r.amount * r.refundedPart) / 100) / (r.usd ? 100 : 1)
            return {
              customerId: String(r.customer),
              contractId: '1',
              amount,
              refunded,
              currencyCode: r.usd ? 'USD' : 'JPY',
              test: r.test,
              cancelledAt: null,
              createdAt: new Date(Date.parse('2026-01-01T03:00:00Z') + r.day * 86_400_000),
            }
          })
          const range = { from: '2026-01-15', to: '2026-03-10' }
          const ltv = lifetimeValues(facts, range, TOKYO).totals
          const sales = dailySales(facts, TOKYO)
          for (const currency of ['JPY', 'USD']) {
            const fromLtv = ltv.filter((t) => t.currencyCode === currency).reduce((s, t) => s + t.amount, 0)
            let fromSales = 0
            for (const [key, s] of sales) {
              const [day, code] = key.split('|')
              if (code === currency && day! >= range.from && day! <= range.to) fromSales += s.amount
            }
            expect(fromSales).toBeCloseTo(fromLtv, 6)
          }
        },
      ),
    )
  })

  it('a test shop (a development store) counts its test orders', () => {
    const orders = [order({ createdAt: '2026-03-01T03:00:00Z', amount: 500, test: true })]
    expect(dailySales(orders, TOKYO).size).toBe(0)
    expect(dailySales(orders, TOKYO, true).get('2026-03-01|JPY')).toEqual({ amount: 500, orders: 1 })
  })

  it('change against the previous period; none when that was 0', () => {
    expect(changeRatio(12, 10)).toBeCloseTo(0.2)
    expect(changeRatio(5, 0)).toBeNull()
  })
})

describe('property: the daily series summed over a range is the cumulative figure for it', () => {
  const event = fc.record({
    contractId: fc.constantFrom('1', '2', '3'),
    type: fc.constantFrom('created', 'status_changed', 'billing_failed', 'billed'),
    occurredAt: fc.date({
      min: new Date('2026-01-01T00:00:00Z'),
      max: new Date('2026-03-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    payload: fc.record({
      from: fc.constantFrom('ACTIVE', 'PAUSED', 'CANCELLED', 'FAILED'),
      to: fc.constantFrom('ACTIVE', 'PAUSED', 'CANCELLED', 'FAILED'),
    }),
  })
  it('for every measure and range', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 60 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 40 }),
        (events, offset, length) => {
          const days = dailyMeasures(events, TOKYO)
          const from = new Date(Date.UTC(2026, 0, 1 + offset)).toISOString().slice(0, 10)
          const to = new Date(Date.UTC(2026, 0, 1 + offset + length)).toISOString().slice(0, 10)
          for (const measure of ['created', 'cancelled', 'paused', 'failed'] as const) {
            const daily = dailySeries(days, measure, from, to)
            const cumulative = cumulativeSeries(daily)
            const sum = daily.reduce((s, d) => s + d.count, 0)
            expect(cumulative.at(-1)?.count).toBe(sum)
            // …and equal to counting the facts of the range directly.
            const direct = [...days]
              .filter(([d]) => d >= from && d <= to)
              .reduce((s, [, m]) => s + m[measure], 0)
            expect(sum).toBe(direct)
          }
        },
      ),
    )
  })
})
