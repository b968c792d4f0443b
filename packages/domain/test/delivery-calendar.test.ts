import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  CARRIER_KEYS,
  CARRIERS,
  carrierOffers,
  DEFAULT_DELIVERY_SETTINGS,
  type DeliverySettings,
  deliverableDates,
  deliverableRange,
  isClosedDay,
  isDeliverable,
  nextDeliveryDate,
  orderDay,
  slotCode,
} from '../src/index.ts'

// Japan time whatever the process zone (the npm script pins TZ=UTC; every instant below is UTC).
const S: DeliverySettings = {
  carrier: 'yamato',
  leadDays: 2,
  extraDaysByPrefecture: { 'JP-01': 1, 'JP-47': 2 },
  closedYearEnd: true,
  closedDates: [],
  horizonDays: 30,
  cutoff: '23:59',
}
const at = (iso: string) => new Date(iso)

describe('orderDay: the cutoff in Japan time', () => {
  it.each<[string, string, string]>([
    ['23:59', '2026-11-28T14:58:59Z', '2026-11-28'], // 23:58:59 JST, before the cutoff
    ['23:59', '2026-11-28T14:59:00Z', '2026-11-29'], // 23:59:00 JST, at the cutoff: the next day
    ['00:00', '2026-11-28T15:00:00Z', '2026-11-30'], // 00:00 JST on the 29th is already past a 00:00 cutoff
    ['00:00', '2026-11-28T14:59:59Z', '2026-11-29'], // 23:59:59 JST on the 28th
    ['12:00', '2026-11-28T02:59:59Z', '2026-11-28'], // 11:59:59 JST
    ['12:00', '2026-11-28T03:00:00Z', '2026-11-29'], // 12:00 JST
    ['12:00', '2026-12-31T03:00:00Z', '2027-01-01'], // year end
    ['12:00', '2028-02-28T05:00:00Z', '2028-02-29'], // leap day
  ])('cutoff %s at %s counts from %s', (cutoff, now, day) => {
    expect(orderDay({ cutoff }, at(now))).toBe(day)
  })

  it('refuses a cutoff that is not HH:MM', () => {
    expect(() => orderDay({ cutoff: '24:00' }, at('2026-11-28T00:00:00Z'))).toThrow(RangeError)
  })
})

describe('deliverableRange / isDeliverable', () => {
  it.each<[string, string | null, string, string, string]>([
    // now (UTC), prefecture, settings change, earliest, latest
    ['2026-11-28T01:00:00Z', 'JP-13', '', '2026-11-30', '2026-12-28'], // 東京: 2 days
    ['2026-11-28T01:00:00Z', 'JP-01', '', '2026-12-01', '2026-12-28'], // 北海道 +1
    ['2026-11-28T01:00:00Z', 'JP-47', '', '2026-12-02', '2026-12-28'], // 沖縄 +2
    ['2026-11-28T01:00:00Z', null, '', '2026-11-30', '2026-12-28'], // no prefecture yet
    ['2026-11-29T14:59:00Z', 'JP-13', '', '2026-12-02', '2026-12-30'], // 23:59 JST: from the 30th
    ['2026-12-29T01:00:00Z', 'JP-13', '', '2027-01-04', '2027-01-28'], // 12-31: past 年末年始
    ['2027-01-29T01:00:00Z', 'JP-47', '', '2027-02-02', '2027-02-28'], // month end
  ])('at %s for %s: %s → %s', (now, prefecture, _change, earliest, latest) => {
    expect(deliverableRange(S, prefecture, at(now))).toEqual({ earliest, latest })
  })

  it('skips a closed day at the start and inside the range', () => {
    const s = { ...S, closedDates: ['2026-11-30', '2026-12-05'] }
    const now = at('2026-11-28T01:00:00Z')
    expect(deliverableRange(s, 'JP-13', now)?.earliest).toBe('2026-12-01')
    expect(isDeliverable(s, 'JP-13', '2026-12-05', now)).toBe(false)
    expect(isDeliverable(s, 'JP-13', '2026-12-06', now)).toBe(true)
    expect(deliverableDates(s, 'JP-13', now)).not.toContain('2026-12-05')
  })

  it('refuses dates before the earliest, after the latest and that are not days', () => {
    const now = at('2026-11-28T01:00:00Z')
    expect(isDeliverable(S, 'JP-13', '2026-11-29', now)).toBe(false)
    expect(isDeliverable(S, 'JP-13', '2026-11-30', now)).toBe(true)
    expect(isDeliverable(S, 'JP-13', '2026-12-28', now)).toBe(true)
    expect(isDeliverable(S, 'JP-13', '2026-12-29', now)).toBe(false)
    expect(isDeliverable(S, 'JP-13', '2026-02-30', now)).toBe(false)
  })

  it('年末年始: 12月31日 to 1月3日 closed only when the shop closes them', () => {
    for (const day of ['2026-12-31', '2027-01-01', '2027-01-02', '2027-01-03']) {
      expect(isClosedDay(S, day)).toBe(true)
      expect(isClosedDay({ ...S, closedYearEnd: false }, day)).toBe(false)
    }
    expect(isClosedDay(S, '2026-12-30')).toBe(false)
    expect(isClosedDay(S, '2027-01-04')).toBe(false)
  })
})

describe('nextDeliveryDate: billing date + preparation days, past days without delivery', () => {
  it.each<[string, number, string]>([
    ['2026-11-28', 3, '2026-12-01'],
    ['2026-11-28', 0, '2026-11-28'],
    ['2026-12-29', 2, '2027-01-04'], // lands on 12-31: moved past 年末年始
    ['2027-01-30', 3, '2027-02-02'], // month end
    ['2028-02-27', 2, '2028-02-29'], // leap year
  ])('%s + %i → %s', (billed, prep, delivery) => {
    expect(nextDeliveryDate(S, billed, prep)).toBe(delivery)
  })

  it('refuses negative or fractional preparation days', () => {
    expect(() => nextDeliveryDate(S, '2026-11-28', -1)).toThrow(RangeError)
    expect(() => nextDeliveryDate(S, '2026-11-28', 1.5)).toThrow(RangeError)
  })
})

describe('carriers: slot codes as the carriers’ software reads them', () => {
  it.each<[string, string, string]>([
    ['yamato', 'AM', '0812'],
    ['yamato', '14-16', '1416'],
    ['yamato', '19-21', '1921'],
    ['sagawa', 'AM', '01'],
    ['sagawa', '12-14', '12'],
    ['sagawa', '19-21', '19'],
    ['japanpost', 'AM', '51'],
    ['japanpost', '19-21', '57'],
  ])('%s %s → %s', (carrier, slot, code) => {
    expect(slotCode(carrier as 'yamato', slot as 'AM')).toBe(code)
  })

  it('ヤマト has no 12-14 (dropped in 2017); 指定なし has no code but is always offered', () => {
    expect(slotCode('yamato', '12-14')).toBeNull()
    expect(carrierOffers('yamato', '12-14')).toBe(false)
    expect(slotCode('yamato', 'NONE')).toBeNull()
    for (const key of CARRIER_KEYS) expect(carrierOffers(key, 'NONE')).toBe(true)
  })

  it('every carrier’s codes are distinct and its slots in the day’s order', () => {
    for (const key of CARRIER_KEYS) {
      const codes = CARRIERS[key].slots.map((s) => s.code)
      expect(new Set(codes).size).toBe(codes.length)
    }
  })
})

describe('properties', () => {
  const day = fc.date({
    min: new Date('2026-01-01T00:00:00Z'),
    max: new Date('2030-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  const settings = fc.record({
    carrier: fc.constantFrom(...CARRIER_KEYS),
    leadDays: fc.integer({ min: 1, max: 14 }),
    extraDaysByPrefecture: fc.dictionary(
      fc.constantFrom('JP-01', 'JP-13', 'JP-47'),
      fc.integer({ min: 0, max: 7 }),
    ),
    closedYearEnd: fc.boolean(),
    closedDates: fc.array(
      day.map((d) => d.toISOString().slice(0, 10)),
      { maxLength: 20 },
    ),
    horizonDays: fc.integer({ min: 22, max: 90 }),
    cutoff: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  })
  const prefecture = fc.constantFrom('JP-01', 'JP-13', 'JP-47', null)

  it('every listed date is deliverable, open, and at least the lead (+ extra) after the order’s day', () => {
    fc.assert(
      fc.property(settings, prefecture, day, (s, pref, now) => {
        const from = orderDay(s, now)
        const lead = s.leadDays + (pref ? (s.extraDaysByPrefecture[pref] ?? 0) : 0)
        for (const date of deliverableDates(s, pref, now)) {
          expect(isDeliverable(s, pref, date, now)).toBe(true)
          expect(isClosedDay(s, date)).toBe(false)
          expect(date >= addCalendarDays(from, lead)).toBe(true)
          expect(date <= addCalendarDays(from, s.horizonDays)).toBe(true)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('the order’s day is Japan’s date or the next one, and never goes back as time goes on', () => {
    fc.assert(
      fc.property(settings, day, fc.integer({ min: 0, max: 86_400_000 }), (s, now, later) => {
        const a = orderDay(s, now)
        const b = orderDay(s, new Date(now.getTime() + later))
        expect(b >= a).toBe(true)
        const japan = new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10)
        expect([japan, addCalendarDays(japan, 1)]).toContain(a)
      }),
      { numRuns: 300 },
    )
  })

  it('the next delivery date is open and no earlier than billing + prep days', () => {
    fc.assert(
      fc.property(settings, day, fc.integer({ min: 0, max: 30 }), (s, billed, prep) => {
        const billingDate = billed.toISOString().slice(0, 10)
        const delivery = nextDeliveryDate(s, billingDate, prep)
        expect(isClosedDay(s, delivery)).toBe(false)
        expect(delivery >= addCalendarDays(billingDate, prep)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('the default settings allow every prefecture a date', () => {
    fc.assert(
      fc.property(prefecture, day, (pref, now) => {
        expect(deliverableDates(DEFAULT_DELIVERY_SETTINGS, pref, now).length).toBeGreaterThan(0)
      }),
    )
  })
})
