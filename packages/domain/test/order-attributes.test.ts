import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  APP_ORDER_ATTRIBUTE_KEYS,
  cyclesCover,
  DELIVERY_DATE_ATTRIBUTE,
  DELIVERY_TIME_CODE_ATTRIBUTE,
  noteAttributeProblem,
  ORDER_COUNT_ATTRIBUTE,
  orderAttributes,
  parseNoteAttributes,
  parseSkuConversions,
  SHIP_SKUS_ATTRIBUTE,
  shipSkus,
  skuConversionsProblem,
} from '../src/index.ts'

const base = {
  contractAttributes: [
    { key: '配送時間帯', value: '19時〜21時' },
    { key: 'お届け予定日', value: '2026-12-03' },
    { key: 'ギフト包装', value: '希望する' },
  ],
  cycle: 3,
  deliveryDate: '2026-12-03',
  carrier: 'yamato' as const,
  noteAttributes: [{ key: '定期便', value: 'あり' }],
  skuConversions: [],
  lines: [{ sku: 'GRANOLA-500', quantity: 2 }],
}

describe('orderAttributes: what a subscription order carries', () => {
  it('keeps the contract’s, adds the merchant’s, then the slot code, 定期回数 and the date', () => {
    expect(orderAttributes(base)).toEqual([
      { key: '配送時間帯', value: '19時〜21時' },
      { key: 'お届け予定日', value: '2026-12-03' },
      { key: 'ギフト包装', value: '希望する' },
      { key: '定期便', value: 'あり' },
      { key: '配送時間帯コード', value: '1921' },
      { key: '定期回数', value: '3' },
    ])
  })

  it.each<['yamato' | 'sagawa' | 'japanpost', string | undefined]>([
    ['yamato', '1921'],
    ['sagawa', '19'],
    ['japanpost', '57'],
  ])('the code is the carrier’s (%s → %s)', (carrier, code) => {
    const list = orderAttributes({ ...base, carrier })
    expect(list.find((a) => a.key === '配送時間帯コード')?.value).toBe(code)
  })

  it('a slot the carrier does not offer, or none, gets no code', () => {
    const noon = orderAttributes({
      ...base,
      contractAttributes: [{ key: '配送時間帯', value: '12時〜14時' }],
    })
    expect(noon.map((a) => a.key)).not.toContain('配送時間帯コード')
    expect(orderAttributes({ ...base, contractAttributes: [] }).map((a) => a.key)).not.toContain(
      '配送時間帯コード',
    )
  })

  it('the order’s date replaces the contract’s (the contract keeps the next one); none removes it', () => {
    const moved = orderAttributes({ ...base, deliveryDate: '2026-12-05' })
    expect(moved.find((a) => a.key === 'お届け予定日')?.value).toBe('2026-12-05')
    expect(orderAttributes({ ...base, deliveryDate: null }).map((a) => a.key)).not.toContain('お届け予定日')
  })

  it('a merchant’s attribute cannot take an app key; it may replace a contract’s', () => {
    const list = orderAttributes({
      ...base,
      noteAttributes: [
        { key: '定期回数', value: '99' },
        { key: 'ギフト包装', value: '不要' },
      ],
    })
    expect(list.filter((a) => a.key === '定期回数')).toEqual([{ key: '定期回数', value: '3' }])
    expect(list.find((a) => a.key === 'ギフト包装')?.value).toBe('不要')
  })

  it('every key once, whatever the inputs', () => {
    const attr = fc.record({
      key: fc.constantFrom('配送時間帯', 'お届け予定日', '定期回数', 'A', 'B'),
      value: fc.string(),
    })
    fc.assert(
      fc.property(
        fc.array(attr),
        fc.array(attr),
        fc.integer({ min: 1, max: 500 }),
        (contract, notes, cycle) => {
          const list = orderAttributes({
            ...base,
            contractAttributes: contract,
            noteAttributes: notes,
            cycle,
          })
          expect(new Set(list.map((a) => a.key)).size).toBe(list.length)
          expect(list.find((a) => a.key === '定期回数')?.value).toBe(String(cycle))
        },
      ),
    )
  })
})

describe('SKU conversions', () => {
  const rules = parseSkuConversions(
    JSON.stringify([
      { from: 'GRANOLA-500', to: 'GRANOLA-500-FIRST+LEAFLET', cycles: '1' },
      { from: 'GRANOLA-500', to: 'GRANOLA-500-R', cycles: '4-' },
      { from: 'TEA', to: 'TEA-2026' },
    ]),
  )

  it.each<[number, string]>([
    [1, 'GRANOLA-500-FIRST×2、LEAFLET×2、TEA-2026×1'],
    [2, 'GRANOLA-500×2、TEA-2026×1'],
    [3, 'GRANOLA-500×2、TEA-2026×1'],
    [4, 'GRANOLA-500-R×2、TEA-2026×1'],
    [40, 'GRANOLA-500-R×2、TEA-2026×1'],
  ])('order %i ships %s', (cycle, skus) => {
    const lines = [
      { sku: 'GRANOLA-500', quantity: 2 },
      { sku: null, quantity: 1 },
      { sku: 'TEA', quantity: 1 },
    ]
    expect(shipSkus(lines, rules, cycle)).toBe(skus)
    expect(orderAttributes({ ...base, skuConversions: rules, lines, cycle }).at(-1)).toEqual({
      key: '出荷SKU',
      value: skus,
    })
  })

  it('equal SKUs add up; a shop without conversions writes no 出荷SKU', () => {
    const lines = [
      { sku: 'A', quantity: 1 },
      { sku: 'B', quantity: 1 },
    ]
    expect(shipSkus(lines, [{ from: 'B', to: 'A' }], 2)).toBe('A×2')
    expect(orderAttributes(base).map((a) => a.key)).not.toContain('出荷SKU')
  })

  it.each<[string | undefined, number, boolean]>([
    [undefined, 7, true],
    ['1', 1, true],
    ['1', 2, false],
    ['2-', 1, false],
    ['2-', 2, true],
    ['2-', 999, true],
    ['1-3', 3, true],
    ['1-3', 4, false],
    ['x', 1, false],
  ])('cycles %s covers order %i: %s', (cycles, cycle, covers) => {
    expect(cyclesCover(cycles, cycle)).toBe(covers)
  })

  it.each<[string, string]>([
    [
      '[{"from":"A","to":"B","cycles":"0"}]',
      'SKU変換の1件目の "cycles" は 1（初回）、2-（2回目以降）、1-3 のように回数で入力してください',
    ],
    ['[{"from":"A","to":"B+"}]', 'SKU変換の1件目の "to" に空のSKUがあります（複数のSKUは + でつなぎます）'],
    [
      '[{"from":"A","to":"B","cycles":"1-3"},{"from":"A","to":"C","cycles":"3-"}]',
      'SKU変換の2件目の "from"（A）は1件目と重複しています',
    ],
  ])('%s is refused', (text, problem) => {
    expect(skuConversionsProblem(text)).toBe(problem)
    expect(parseSkuConversions(text)).toEqual([])
  })

  it('the same SKU in cycles that do not meet is allowed', () => {
    expect(
      skuConversionsProblem('[{"from":"A","to":"B","cycles":"1"},{"from":"A","to":"C","cycles":"2-"}]'),
    ).toBeNull()
  })

  it('note attributes parse with an empty value for a missing one', () => {
    expect(parseNoteAttributes('[{"key":"定期便","value":"あり"},{"key":"同梱物"}]')).toEqual([
      { key: '定期便', value: 'あり' },
      { key: '同梱物', value: '' },
    ])
    expect(parseNoteAttributes('[{"key":""}]')).toEqual([])
  })
})

describe('the app’s keys', () => {
  it('are the ones orderAttributes writes', () => {
    expect([...APP_ORDER_ATTRIBUTE_KEYS].sort()).toEqual(
      [
        DELIVERY_DATE_ATTRIBUTE,
        DELIVERY_TIME_CODE_ATTRIBUTE,
        ORDER_COUNT_ATTRIBUTE,
        SHIP_SKUS_ATTRIBUTE,
      ].sort(),
    )
  })

  it('a merchant’s note attribute may not take one', () => {
    expect(noteAttributeProblem('[{"key":"定期便","value":"あり"},{"key":"定期回数","value":"1"}]')).toBe(
      '注文メモ属性の2件目の "key"（定期回数）はアプリが付ける項目のため使えません',
    )
  })
})
