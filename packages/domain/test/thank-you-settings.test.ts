import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  conversionRequests,
  expandTagUrl,
  parseThankYouSettings,
  pixelTagsSetting,
  thankYouSettingsProblem,
  thankYouSettingsText,
} from '../src/index.ts'

const tag = (over: Record<string, unknown> = {}) => ({
  name: 'A8.net',
  url: 'https://px.example.jp/cv?so={order_id}&si={total}',
  ...over,
})
const text = (value: unknown) => JSON.stringify(value, null, 2)

describe('thankYouSettingsProblem', () => {
  it('accepts "not set", a message alone, and tags', () => {
    expect(thankYouSettingsProblem('""')).toBeNull()
    expect(thankYouSettingsProblem(text({ message: 'ご購入ありがとうございます' }))).toBeNull()
    expect(
      thankYouSettingsProblem(
        text({ message: '', tags: [tag(), tag({ name: 'Google 広告', subscriptionOnly: false })] }),
      ),
    ).toBeNull()
    expect(
      thankYouSettingsProblem(text({ tags: [tag({ url: 'http://127.0.0.1:9/cv?o={order_id}' })] })),
    ).toBeNull()
  })

  it.each([
    ['{"message": "x",\n  "tags": [}', 'サンクスページの設定のJSONが正しくありません（2行目 12文字目付近）'],
    [JSON.stringify('<script>alert(1)</script>'), 'スクリプトが実行されなくなりました'],
    ['[]', 'オブジェクトで入力してください'],
    [text({ script: 'x' }), '"script" は使えない項目です'],
    [text({ message: 'あ'.repeat(1001) }), 'メッセージは1000文字以内'],
    [text({ tags: {} }), '計測タグ（"tags"）は配列'],
    [text({ tags: Array.from({ length: 11 }, (_, i) => tag({ name: `t${i}` })) }), '計測タグは10件以内'],
    [text({ tags: [tag({ name: ' ' })] }), '計測タグの1件目の "name"（タグ名）を入力してください'],
    [text({ tags: [tag(), tag()] }), '計測タグの2件目の "name"（A8.net）が他のタグと重複しています'],
    [
      text({ tags: [tag({ url: 'http://px.example.jp/cv' })] }),
      '計測タグの1件目の "url" は https:// で始まるURL',
    ],
    [text({ tags: [tag({ url: 'javascript:alert(1)' })] }), 'https:// で始まるURL'],
    [text({ tags: [tag({ url: 'https://x.example/?e={email}' })] }), '{email} は使えません'],
    [text({ tags: [tag({ subscriptionOnly: 'yes' })] }), '"subscriptionOnly" は true または false'],
    [text({ tags: [tag({ onload: 'x' })] }), '計測タグの1件目の "onload" は使えない項目です'],
  ])('refuses %s', (input, message) => {
    expect(thankYouSettingsProblem(input)).toContain(message)
  })
})

describe('parse and print', () => {
  it('round-trips what passes, subscriptionOnly defaulting to true', () => {
    const s = parseThankYouSettings(text({ message: 'またのご利用を', tags: [tag({ name: ' A8 ' })] }))
    expect(s).toEqual({
      message: 'またのご利用を',
      legacyScript: '',
      tags: [{ name: 'A8', url: tag().url, subscriptionOnly: true }],
    })
    expect(parseThankYouSettings(thankYouSettingsText(s))).toEqual(s)
    expect(thankYouSettingsText(parseThankYouSettings('""'))).toBe('""')
    expect(pixelTagsSetting(s.tags)).toBe(`[{"url":"${tag().url}","subscriptionOnly":true}]`)
  })
})

describe('conversionRequests (what the pixel requests on checkout_completed)', () => {
  const checkout = (subscription: boolean) => ({
    order: { id: '1234' },
    totalPrice: { amount: 1980, currencyCode: 'JPY' },
    subtotalPrice: { amount: 1500 },
    currencyCode: 'JPY',
    lineItems: [{ sellingPlanAllocation: subscription ? { sellingPlan: { id: '1', name: '毎月' } } : null }],
  })
  const setting = pixelTagsSetting([
    {
      name: 'a',
      url: 'https://a.example/cv?so={order_id}&si={total}-{subtotal}{currency}',
      subscriptionOnly: true,
    },
    { name: 'b', url: 'https://b.example/all?o={order_id}', subscriptionOnly: false },
  ])

  it('fills the order values; a subscription-only tag needs a selling plan line', () => {
    expect(conversionRequests(setting, checkout(true))).toEqual([
      'https://a.example/cv?so=1234&si=1980-1500JPY',
      'https://b.example/all?o=1234',
    ])
    expect(conversionRequests(setting, checkout(false))).toEqual(['https://b.example/all?o=1234'])
  })

  it('sends nothing for an unreadable setting or a checkout without an order', () => {
    expect(conversionRequests('not json', checkout(true))).toEqual([])
    expect(conversionRequests(undefined, checkout(true))).toEqual([])
    expect(conversionRequests(setting, { ...checkout(true), order: null })).toEqual([])
  })

  it('a value never changes the URL beyond its own component', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const url = new URL(
          expandTagUrl('https://x.example/p?a={order_id}&b=2', {
            order_id: value,
            total: '',
            subtotal: '',
            currency: '',
          }),
        )
        expect(url.host).toBe('x.example')
        expect(url.searchParams.get('a')).toBe(
          (value as unknown as { toWellFormed(): string }).toWellFormed(),
        )
        expect(url.searchParams.get('b')).toBe('2')
      }),
    )
  })
})
