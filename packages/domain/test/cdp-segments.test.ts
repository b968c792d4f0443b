import { describe, expect, it } from 'vitest'
import {
  describeConditions,
  matchesSegment,
  normalizeConditions,
  type SegmentConditions,
  type SegmentCustomer,
  segmentProblems,
} from '../src/index.ts'

const TZ = 'Asia/Tokyo'

// 佐藤: two orders from an Instagram campaign, active, tagged VIP, first order 2026-04-01 00:30 JST.
const sato: SegmentCustomer = {
  tags: ['VIP', '定期購入者'],
  orderCount: 2,
  amounts: { JPY: 3960 },
  firstOrderAt: new Date('2026-03-31T15:30:00Z'),
  contracts: [{ status: 'ACTIVE', sellingPlanGroupIds: ['11'] }],
  attributions: [{ source: 'instagram', medium: 'social' }],
}
// 鈴木: one order, paused then cancelled, no campaign, paid in JPY and USD.
const suzuki: SegmentCustomer = {
  tags: [],
  orderCount: 1,
  amounts: { JPY: 1980, USD: 20 },
  firstOrderAt: new Date('2026-03-31T14:59:59Z'),
  contracts: [
    { status: 'PAUSED', sellingPlanGroupIds: ['12'] },
    { status: 'CANCELLED', sellingPlanGroupIds: ['11'] },
  ],
  attributions: [],
}
// 田中: no order yet.
const tanaka: SegmentCustomer = {
  tags: ['休眠'],
  orderCount: 0,
  amounts: {},
  firstOrderAt: null,
  contracts: [],
  attributions: [{ source: 'google', medium: 'cpc' }],
}

const who = (c: SegmentConditions) =>
  Object.entries({ sato, suzuki, tanaka })
    .filter(([, customer]) => matchesSegment(customer, c, 'JPY', TZ))
    .map(([name]) => name)

describe('matchesSegment: each condition alone', () => {
  it.each<[string, SegmentConditions, string[]]>([
    ['empty segment: every customer', {}, ['sato', 'suzuki', 'tanaka']],
    ['traffic source only', { traffic: [{ source: 'instagram' }] }, ['sato']],
    ['traffic source and medium', { traffic: [{ source: 'google', medium: 'cpc' }] }, ['tanaka']],
    ['traffic medium that does not match', { traffic: [{ source: 'google', medium: 'email' }] }, []],
    ['traffic: any of two', { traffic: [{ source: 'instagram' }, { source: 'google' }] }, ['sato', 'tanaka']],
    ['status ACTIVE', { statuses: ['ACTIVE'] }, ['sato']],
    ['status any of PAUSED, FAILED', { statuses: ['PAUSED', 'FAILED'] }, ['suzuki']],
    ['order count ≥ 2 (boundary: 2 is in)', { orderCount: { min: 2 } }, ['sato']],
    ['order count ≤ 1 (boundary: 1 is in, 0 too)', { orderCount: { max: 1 } }, ['suzuki', 'tanaka']],
    ['order count exactly 0', { orderCount: { min: 0, max: 0 } }, ['tanaka']],
    ['LTV ≥ 3960 (boundary: equal is in)', { lifetimeValue: { min: 3960 } }, ['sato']],
    ['LTV ≤ 1980 in JPY only: USD is not added', { lifetimeValue: { max: 1980 } }, ['suzuki', 'tanaka']],
    ['LTV 1981–3959: nobody', { lifetimeValue: { min: 1981, max: 3959 } }, []],
    // 2026-04-01 in Tokyo starts at 2026-03-31T15:00Z: sato (15:30Z) is in, suzuki (14:59:59Z) is not.
    ['first order from 2026-04-01 (JST day boundary)', { firstOrderDate: { from: '2026-04-01' } }, ['sato']],
    ['first order to 2026-03-31 (inclusive)', { firstOrderDate: { to: '2026-03-31' } }, ['suzuki']],
    [
      'first order range excludes customers without orders',
      { firstOrderDate: { from: '2000-01-01' } },
      ['sato', 'suzuki'],
    ],
    ['selling plan group 11 (any contract)', { sellingPlanGroupIds: ['11'] }, ['sato', 'suzuki']],
    ['selling plan group 12', { sellingPlanGroupIds: ['12'] }, ['suzuki']],
    ['tag any of VIP, 休眠', { tags: { any: ['VIP', '休眠'] } }, ['sato', 'tanaka']],
    ['tag none of VIP', { tags: { none: ['VIP'] } }, ['suzuki', 'tanaka']],
  ])('%s', (_name, conditions, expected) => {
    expect(who(conditions)).toEqual(expected)
  })
})

describe('matchesSegment: conditions combined (AND)', () => {
  it.each<[string, SegmentConditions, string[]]>([
    [
      'campaign and two orders or more',
      { traffic: [{ source: 'instagram' }], orderCount: { min: 2 } },
      ['sato'],
    ],
    [
      'campaign and three orders or more: nobody',
      { traffic: [{ source: 'instagram' }], orderCount: { min: 3 } },
      [],
    ],
    [
      'group 11 and ACTIVE (not the cancelled contract)',
      { sellingPlanGroupIds: ['11'], statuses: ['ACTIVE'] },
      ['sato'],
    ],
    ['no VIP tag and an order', { tags: { none: ['VIP'] }, orderCount: { min: 1 } }, ['suzuki']],
    [
      'every condition at once',
      {
        traffic: [{ source: 'instagram', medium: 'social' }],
        statuses: ['ACTIVE'],
        orderCount: { min: 1, max: 2 },
        lifetimeValue: { min: 1, max: 5000 },
        firstOrderDate: { from: '2026-04-01', to: '2026-04-01' },
        sellingPlanGroupIds: ['11'],
        tags: { any: ['VIP'], none: ['休眠'] },
      },
      ['sato'],
    ],
  ])('%s', (_name, conditions, expected) => {
    expect(who(conditions)).toEqual(expected)
  })
})

describe('segmentProblems', () => {
  it.each<[string, SegmentConditions, Record<string, string>]>([
    ['nothing wrong', { orderCount: { min: 1, max: 1 } }, {}],
    [
      'min above max',
      { orderCount: { min: 3, max: 2 } },
      { orderCount: '購入回数の下限は上限以下にしてください' },
    ],
    ['negative LTV', { lifetimeValue: { min: -1 } }, { lifetimeValue: 'LTVは0以上の数値で指定してください' }],
    ['fractional count', { orderCount: { min: 1.5 } }, { orderCount: '購入回数は整数で指定してください' }],
    [
      'a day that does not exist',
      { firstOrderDate: { from: '2026-02-30' } },
      { firstOrderDate: '初回購入日に存在しない日付が指定されました' },
    ],
    [
      'days out of order',
      { firstOrderDate: { from: '2026-05-01', to: '2026-04-30' } },
      { firstOrderDate: '初回購入日の開始日は終了日以前にしてください' },
    ],
    ['empty source', { traffic: [{ source: ' ' }] }, { traffic: '流入元（source）を指定してください' }],
  ])('%s', (_name, conditions, expected) => {
    expect(segmentProblems(conditions)).toEqual(expected)
  })
})

describe('normalizeConditions and describeConditions', () => {
  it('drops empty parts and duplicates', () => {
    expect(
      normalizeConditions({
        statuses: ['ACTIVE', 'ACTIVE'],
        orderCount: {},
        tags: { any: [], none: ['x', 'x'] },
        traffic: [{ source: 'ig', medium: '' }],
      }),
    ).toEqual({ statuses: ['ACTIVE'], tags: { none: ['x'] }, traffic: [{ source: 'ig' }] })
    expect(normalizeConditions({ lifetimeValue: {}, sellingPlanGroupIds: [] })).toEqual({})
  })

  it('says the conditions in Japanese, with yen and group names', () => {
    expect(
      describeConditions(
        {
          traffic: [{ source: 'instagram', medium: 'social' }],
          statuses: ['ACTIVE', 'PAUSED'],
          orderCount: { min: 2 },
          lifetimeValue: { min: 10000, max: 50000 },
          sellingPlanGroupIds: ['11', '99'],
          tags: { any: ['VIP'] },
        },
        'JPY',
        { '11': '毎月お届け便' },
      ),
    ).toEqual([
      '流入元 instagram / social',
      '契約ステータス 有効・一時停止',
      '購入回数 2回以上',
      'LTV ¥10,000〜¥50,000',
      '販売プラン 毎月お届け便・#99',
      'タグ VIP のいずれかあり',
    ])
    expect(describeConditions({}, 'JPY')).toEqual(['条件なし（すべての顧客）'])
  })
})
