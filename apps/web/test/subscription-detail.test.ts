import { type CycleDiscount, formatDateJa, linePriceRanges } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import {
  addressLines,
  attributeText,
  availableActions,
  billingAttemptState,
  cardExpiryLabel,
  cardLabel,
  cyclesLabel,
  intervalLabel,
  linePriceTexts,
  numericId,
  paymentStatusLabel,
  type ShippingAddress,
  safeDate,
  scheduleLabel,
} from '../src/features/subscriptions/detail/detail-format.ts'

const pct = (value: string, afterCycle: number): CycleDiscount => ({
  adjustmentType: 'PERCENTAGE',
  adjustmentValue: value,
  afterCycle,
})
const ranges = (...list: Array<[number, number | null, string]>) =>
  list.map(([from, to, amount]) => ({ from, to, price: { amount, currencyCode: 'JPY' } }))

const address: ShippingAddress = {
  firstName: '太郎',
  lastName: '山田',
  zip: '1500001',
  province: '東京都',
  city: '渋谷区',
  address1: '神宮前1-2-3',
  address2: '青山ビル101',
  phone: '090-1234-5678',
  countryCode: 'JP',
}

describe('intervalLabel', () => {
  it('reads like the merchant says it', () => {
    expect(intervalLabel('DAY', 1)).toBe('毎日')
    expect(intervalLabel('DAY', 3)).toBe('3日ごと')
    expect(intervalLabel('WEEK', 2)).toBe('2週間ごと')
    expect(intervalLabel('MONTH', 1)).toBe('1ヶ月ごと')
    expect(intervalLabel('YEAR', 1)).toBe('1年ごと')
  })
  it('treats a missing or zero count as 1', () => {
    expect(intervalLabel('MONTH', 0)).toBe('1ヶ月ごと')
  })
})

describe('scheduleLabel: the interval with the day it bills on', () => {
  const monthday = (day: number) => ({ type: 'MONTHDAY', day, month: null })
  const weekday = (day: number) => ({ type: 'WEEKDAY', day, month: null })
  it.each<
    [
      string,
      'DAY' | 'WEEK' | 'MONTH' | 'YEAR',
      number,
      Array<{ type: string; day: number | null; month: number | null }>,
      string,
    ]
  >([
    ['monthly on the 15th', 'MONTH', 1, [monthday(15)], '毎月15日'],
    ['every 2 months on the 15th', 'MONTH', 2, [monthday(15)], '2ヶ月ごと（15日）'],
    ['monthly on two days', 'MONTH', 1, [monthday(1), monthday(15)], '毎月1日・15日'],
    ['weekly on Monday (ISO 1)', 'WEEK', 1, [weekday(1)], '毎週月曜日'],
    ['weekly on Sunday (ISO 7)', 'WEEK', 1, [weekday(7)], '毎週日曜日'],
    ['every 2 weeks on Friday', 'WEEK', 2, [weekday(5)], '2週間ごと（金曜日）'],
    ['yearly on 3月15日', 'YEAR', 1, [{ type: 'YEARDAY', day: 15, month: 3 }], '毎年3月15日'],
    ['no anchor', 'MONTH', 1, [], '1ヶ月ごと'],
    ['an anchor of another kind', 'MONTH', 1, [weekday(1)], '1ヶ月ごと'],
    ['an impossible day', 'WEEK', 1, [weekday(8)], '1週間ごと'],
    ['daily has no day', 'DAY', 3, [monthday(5)], '3日ごと'],
  ])('%s', (_name, interval, count, anchors, label) => {
    expect(scheduleLabel(interval, count, anchors)).toBe(label)
  })
})

describe('addressLines', () => {
  it('Japanese order: zip, street, name, phone', () => {
    expect(addressLines(address)).toEqual([
      '〒150-0001',
      '東京都渋谷区神宮前1-2-3 青山ビル101',
      '山田 太郎 様',
      'TEL 090-1234-5678',
    ])
  })
  it('leaves out missing parts and keeps a hyphenated zip', () => {
    expect(
      addressLines({
        ...address,
        zip: '150-0001',
        address2: null,
        phone: '',
        firstName: null,
        lastName: null,
      }),
    ).toEqual(['〒150-0001', '東京都渋谷区神宮前1-2-3'])
  })
  it('phone in Japanese national format, as the platform stores it in E.164', () => {
    expect(addressLines({ ...address, phone: '+817077812083' }).at(-1)).toBe('TEL 070-7781-2083')
    expect(addressLines({ ...address, phone: '+81312345678' }).at(-1)).toBe('TEL 03-1234-5678')
    expect(addressLines({ ...address, phone: '+14155550123' }).at(-1)).toBe('TEL +14155550123')
  })
  it('is empty when nothing is known', () => {
    const none = Object.fromEntries(Object.keys(address).map((key) => [key, null])) as ShippingAddress
    expect(addressLines(none)).toEqual([])
  })
})

describe('card labels', () => {
  it('brand and masked digits', () => {
    expect(cardLabel('visa', '4242')).toBe('VISA ****4242')
    expect(cardLabel('american_express', '0005')).toBe('American Express ****0005')
    expect(cardLabel('Bogus Pay', '1111')).toBe('Bogus Pay ****1111')
  })
  it('expiry as MM/YYYY', () => {
    expect(cardExpiryLabel(3, 2027)).toBe('03/2027')
    expect(cardExpiryLabel(12, 2030)).toBe('12/2030')
  })
})

describe('payment status', () => {
  it('last payment status', () => {
    expect(paymentStatusLabel('SUCCEEDED')).toBe('成功')
    expect(paymentStatusLabel('FAILED')).toBe('失敗')
    expect(paymentStatusLabel(null)).toBe('—')
  })
  it.each([
    ['pending', '処理中', 'info'],
    ['success', '成功', 'success'],
    ['failed', '失敗', 'critical'],
    ['challenged', '本人認証待ち', 'attention'],
  ] as const)('a billing attempt %s reads %s', (outcome, label, tone) => {
    expect(billingAttemptState({ outcome })).toMatchObject({ label, tone })
  })
  it('only a challenged attempt explains itself: the customer was mailed the link', () => {
    expect(billingAttemptState({ outcome: 'challenged' }).note).toContain('本人認証（3Dセキュア）')
    for (const outcome of ['pending', 'success', 'failed'] as const)
      expect(billingAttemptState({ outcome }).note).toBeNull()
  })
})

describe('small labels', () => {
  it('cycles', () => {
    expect(cyclesLabel(3)).toBe('3回')
    expect(cyclesLabel(null)).toBe('—')
    expect(cyclesLabel(null, '無制限')).toBe('無制限')
  })
  it('a line’s prices per order: the next order’s, then ranges labelled by order number', () => {
    // 回数割定期便 on ¥3,240 after its checkout (1 order): the server's ranges from order 2.
    const multi = linePriceTexts({ cyclePrices: ranges([2, 3, '2592'], [4, null, '2916']) }, 2)
    expect(multi).toEqual({ next: '次回（2回目） ¥2,592', ranges: ['2〜3回目 ¥2,592', '4回目以降 ¥2,916'] })
  })
  it('初回20%オフ before its first order: 1回目 ¥1,984, not 「1回目以降 ¥1,984」', () => {
    // The ranges the server computes (linePriceRanges) for a line of 20% then 10% off ¥2,480.
    const line = {
      currentPrice: '1984.0',
      pricingPolicy: { basePrice: '2480.0', cycleDiscounts: [pct('20', 0), pct('10', 1)] },
    }
    const cyclePrices = linePriceRanges(line, { currencyCode: 'JPY' }, 1).map((r) => ({
      from: r.from,
      to: r.to,
      price: { amount: r.price, currencyCode: 'JPY' },
    }))
    expect(linePriceTexts({ cyclePrices }, 1)).toEqual({
      next: '次回（1回目） ¥1,984',
      ranges: ['1回目 ¥1,984', '2回目以降 ¥2,232'],
    })
    expect(linePriceTexts({ cyclePrices: ranges([4, null, '1782']) }, 4).ranges).toEqual(['4回目以降 ¥1,782'])
    expect(linePriceTexts({ cyclePrices: ranges([1, null, '1782']) }, 1).ranges).toEqual(['毎回 ¥1,782'])
  })
  it('numeric ids from GIDs', () => {
    expect(numericId('gid://shopify/Customer/123')).toBe('123')
    expect(numericId('456')).toBe('456')
  })
  it('dates in Japan time, never throwing', () => {
    expect(safeDate('2026-11-21T15:30:00Z', formatDateJa)).toBe('2026年11月22日')
    expect(safeDate(null, formatDateJa)).toBe('—')
    expect(safeDate('not a date', formatDateJa)).toBe('not a date')
  })
})

describe('availableActions', () => {
  it('follows the domain status table', () => {
    expect(availableActions('ACTIVE')).toEqual(['pause', 'churn'])
    expect(availableActions('PAUSED')).toEqual(['resume', 'churn'])
    expect(availableActions('FAILED')).toEqual(['pause', 'resume', 'churn'])
    expect(availableActions('CANCELLED')).toEqual([])
    expect(availableActions('EXPIRED')).toEqual([])
  })
})

describe('attributeText', () => {
  it.each<[string | null, string]>([
    ['2026-11-24', '2026年11月24日'], // お届け予定日 as the app stores it
    ['2027-01-05', '2027年1月5日'],
    ['2026-11-23T15:30:00Z', '2026年11月24日 0:30'], // an instant: Japan time
    ['2026-02-30', '2026-02-30'], // not a real day: as stored
    ['午前中', '午前中'],
    ['', '—'],
    [null, '—'],
  ])('%s → %s', (value, text) => {
    expect(attributeText(value)).toBe(text)
  })
})
