import {
  addCalendarDays,
  billingAfterDue,
  convertedSkus,
  cycleDependentSkus,
  type ForecastSchedule,
  type ForecastWindow,
  renewalDeliveryDate,
  shippingForecast,
  toZonedDate,
  upcomingOrders,
  zonedDayStart,
} from '@teiki/domain'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

const TZ = 'Asia/Tokyo'
const monthly = { interval: 'MONTH', intervalCount: 1, anchors: [] } as const
const weekly = { interval: 'WEEK', intervalCount: 1, anchors: [] } as const

const window = (from: string, days: number, prepDays = 3): ForecastWindow => ({
  from,
  to: addCalendarDays(from, days - 1),
  timeZone: TZ,
  prepDays,
  closed: { closedYearEnd: true, closedDates: [] },
})

const schedule = (over: Partial<ForecastSchedule>): ForecastSchedule => ({
  dueDate: '2026-12-01',
  policy: monthly,
  createdDay: 1,
  promisedDate: null,
  maxCycles: null,
  ordersSoFar: 2,
  ...over,
})

describe('upcomingOrders: the orders billing will create, on the day each is delivered', () => {
  it.each([
    // [case, schedule, window from, days, expected [billing, delivery, cycle]]
    ['monthly, one order in 7 days', schedule({}), '2026-11-28', 7, [['2026-12-01', '2026-12-04', 3]]],
    [
      'monthly, two orders in 31 days when the next falls inside',
      schedule({ dueDate: '2026-11-28' }),
      '2026-11-28',
      40,
      [
        ['2026-11-28', '2026-12-01', 3],
        // 12月31日 has no delivery (年末年始): 1月4日.
        ['2026-12-28', '2027-01-04', 4],
      ],
    ],
    [
      'weekly, every week; a billing in the year end delivers after it',
      schedule({ dueDate: '2026-12-26', policy: weekly }),
      '2026-12-20',
      20,
      [
        ['2026-12-26', '2026-12-29', 3],
        ['2027-01-02', '2027-01-05', 4],
      ],
    ],
    [
      'an overdue contract bills today',
      schedule({ dueDate: '2026-11-20' }),
      '2026-11-28',
      7,
      [['2026-11-28', '2026-12-01', 3]],
    ],
    [
      'the promised date (not before the billing day) is the first order’s',
      schedule({ promisedDate: '2026-12-10' }),
      '2026-11-28',
      14,
      [['2026-12-01', '2026-12-10', 3]],
    ],
    [
      'a promised date before the billing day is not used',
      schedule({ promisedDate: '2026-11-25' }),
      '2026-11-28',
      7,
      [['2026-12-01', '2026-12-04', 3]],
    ],
    [
      'maxCycles stops the orders',
      schedule({ dueDate: '2026-11-28', policy: weekly, maxCycles: 4 }),
      '2026-11-28',
      31,
      [
        ['2026-11-28', '2026-12-01', 3],
        ['2026-12-05', '2026-12-08', 4],
      ],
    ],
    ['a delivery past the window is left out', schedule({ dueDate: '2026-12-04' }), '2026-11-28', 7, []],
    [
      'without a count the cycle is unknown',
      schedule({ ordersSoFar: null }),
      '2026-11-28',
      7,
      [['2026-12-01', '2026-12-04', null]],
    ],
  ] as const)('%s', (_name, s, from, days, expected) => {
    const orders = upcomingOrders(s, window(from, days))
    expect(orders.map((o) => [o.billingDate, o.deliveryDate, o.cycle])).toEqual(expected)
  })

  it('a 31st contract bills on the last day of a short month and on the 31st after it', () => {
    const s = schedule({ dueDate: '2027-01-31', createdDay: 31, promisedDate: null })
    const orders = upcomingOrders(s, { ...window('2027-01-30', 70, 0) })
    expect(orders.map((o) => o.billingDate)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31'])
  })

  it('property: every order is the one billing creates (same next date, same delivery rule)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom(monthly, weekly, { interval: 'DAY', intervalCount: 10, anchors: [] } as const),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 10 }),
        (offset, policy, createdDay, prep) => {
          const w = window('2026-11-28', 31, prep)
          const dueDate = addCalendarDays('2026-11-20', offset)
          const orders = upcomingOrders(schedule({ dueDate, policy, createdDay }), w)
          // Walk billing's own way: instants at 10:00 advanced by billingAfterDue.
          let at = new Date(zonedDayStart(dueDate < w.from ? w.from : dueDate, TZ).getTime() + 10 * 3_600_000)
          const expected: string[] = []
          while (toZonedDate(at, TZ) <= w.to) {
            const day = toZonedDate(at, TZ)
            const delivery = renewalDeliveryDate(w.closed, day, prep, null)
            if (delivery <= w.to) expected.push(`${day}>${delivery}`)
            at = billingAfterDue(policy, at, TZ, createdDay)
          }
          expect(orders.map((o) => `${o.billingDate}>${o.deliveryDate}`)).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('shippingForecast: per day, orders, units after SKU変換, slots and prefectures', () => {
  const w = window('2026-11-28', 7)
  const a = schedule({ dueDate: '2026-11-29', ordersSoFar: 0 }) // first renewal = cycle 1
  const b = schedule({ dueDate: '2026-11-30', ordersSoFar: 1 }) // cycle 2
  const days = shippingForecast({
    window: w,
    contracts: [
      { ...a, count: 3 },
      { ...b, count: 2 },
    ],
    slots: [
      { ...a, count: 2, slot: '19時〜21時' },
      { ...a, count: 1, slot: '指定なし' },
      { ...b, count: 2, slot: '午前中' },
    ],
    prefectures: [
      { ...a, count: 3, code: 'JP-13' },
      { ...b, count: 1, code: 'JP-47' },
      { ...b, count: 1, code: 'JP-13' },
    ],
    lines: [
      { ...a, count: 6, sku: 'GRANOLA-500' },
      { ...b, count: 2, sku: 'GRANOLA-500' },
    ],
    skuConversions: [{ from: 'GRANOLA-500', to: 'GRANOLA-500-FIRST+LEAFLET', cycles: '1' }],
  })

  it('lists every day of the window, empty ones too', () => {
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
    ])
    expect(days[0]).toEqual({ date: '2026-11-28', orders: 0, units: [], slots: [], prefectures: [] })
  })

  it('puts each group on its delivery day with the cycle’s SKUs', () => {
    const dec2 = days.find((d) => d.date === '2026-12-02')!
    expect(dec2).toEqual({
      date: '2026-12-02',
      orders: 3,
      units: [
        { sku: 'GRANOLA-500-FIRST', quantity: 6 },
        { sku: 'LEAFLET', quantity: 6 },
      ],
      slots: [
        { slot: '19時〜21時', orders: 2 },
        { slot: '指定なし', orders: 1 },
      ],
      prefectures: [{ code: 'JP-13', orders: 3 }],
    })
    const dec3 = days.find((d) => d.date === '2026-12-03')!
    expect(dec3.units).toEqual([{ sku: 'GRANOLA-500', quantity: 2 }])
    expect(dec3.prefectures).toEqual([
      { code: 'JP-13', orders: 1 },
      { code: 'JP-47', orders: 1 },
    ])
  })

  it('adds up to the contracts’ orders', () => {
    expect(days.reduce((n, d) => n + d.orders, 0)).toBe(5)
  })
})

describe('cycleDependentSkus: the lines whose orders must be counted', () => {
  const conversions = [
    { from: 'GRANOLA', to: 'GRANOLA-FIRST+LEAFLET', cycles: '1' },
    { from: 'GRANOLA', to: 'GRANOLA-R' },
    { from: 'TEA', to: 'TEA-2' },
    { from: 'CAKE', to: 'CAKE-X', cycles: '2-4' },
  ]

  it('names each SKU with a conversion by 定期回数 once', () => {
    expect(cycleDependentSkus(conversions)).toEqual(['CAKE', 'GRANOLA'])
    expect(cycleDependentSkus([{ from: 'TEA', to: 'TEA-2' }])).toEqual([])
  })

  it('any other SKU converts the same whatever the order’s number (so its lines need no count)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('TEA', 'SOAP', 'GRANOLA', 'CAKE'),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        (sku, cycle, quantity) => {
          const lines = [{ sku, quantity }]
          const unknownCycle = convertedSkus(lines, conversions, null)
          if (!cycleDependentSkus(conversions).includes(sku))
            expect(convertedSkus(lines, conversions, cycle)).toEqual(unknownCycle)
        },
      ),
    )
  })
})
