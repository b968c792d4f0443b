import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { pageDsn } from '../src/app/report-error.ts'
import { DeliveryDaysFields } from '../src/features/settings/delivery-days-fields.tsx'
import { toDeliveryDraft, toDeliverySettings } from '../src/features/settings/delivery-form.ts'
import { fieldOfMessage, toDraft, toSettings } from '../src/features/settings/settings-form.ts'

describe('settings form', () => {
  it('shows the thank-page script decoded and sends it JSON-encoded (spec §3)', () => {
    const stored = {
      noteAttribute: '[]',
      skuConversions: '[{"from":"A","to":"B"}]',
      thankPageScript: JSON.stringify('<script>alert("ありがとう")</script>'),
      deliveryPrepDays: 3,
    }
    const draft = toDraft(stored)
    expect(draft.thankPageScript).toBe('<script>alert("ありがとう")</script>')
    expect(draft.deliveryPrepDays).toBe('3')
    expect(toSettings(draft)).toEqual(stored)
  })

  it('keeps a stored script that is not a JSON string as it is', () => {
    expect(
      toDraft({ noteAttribute: '[]', skuConversions: '[]', thankPageScript: 'raw', deliveryPrepDays: 0 })
        .thankPageScript,
    ).toBe('raw')
  })

  it.each([
    ['SKU変換のJSONが正しくありません（2行目 22文字目付近）', 'skuConversions'],
    ['注文メモ属性の1件目に "key" がありません', 'noteAttribute'],
    ['サンクスページのスクリプトはJSONの文字列', 'thankPageScript'],
    ['定期購買契約が5件以上あるため、お届け準備期間は変更できません', 'deliveryPrepDays'],
    ['サーバーに接続できませんでした', null],
  ])('%s → field %s', (message, field) => {
    expect(fieldOfMessage(message)).toBe(field)
  })
})

describe('error reporting DSN of the page', () => {
  const doc = (content: string | null) => ({
    querySelector: () => (content === null ? null : { getAttribute: () => content }),
  })
  it('reads the meta tag; none or empty means nothing is sent', () => {
    expect(pageDsn(doc('http://k@127.0.0.1:9/1') as unknown as Document)).toBe('http://k@127.0.0.1:9/1')
    expect(pageDsn(doc(null) as unknown as Document)).toBeNull()
    expect(pageDsn(doc(' ') as unknown as Document)).toBeNull()
  })
})

describe('配送設定 form', () => {
  const stored = {
    carrier: 'sagawa',
    leadDays: 2,
    extraDaysByPrefecture: { 'JP-47': 2, 'JP-01': 1 },
    closedYearEnd: true,
    closedDates: ['2027-05-03', '2027-05-05'],
    horizonDays: 30,
    cutoff: '12:00',
  }

  it('shows closed days in Japanese and sends them back as days, the other settings unchanged', () => {
    const draft = toDeliveryDraft(stored)
    expect(draft.closedDates).toBe('2027年5月3日\n2027年5月5日')
    expect(toDeliverySettings(draft)).toEqual({ body: stored })
  })

  it('reads a closed day typed as 2027/8/13 and skips blank lines', () => {
    const draft = { ...toDeliveryDraft(stored), closedDates: '2027/8/13\n\n2027年8月14日' }
    expect(toDeliverySettings(draft)).toEqual({
      body: { ...stored, closedDates: ['2027-08-13', '2027-08-14'] },
    })
  })

  it('names the line that is not a day', () => {
    const draft = { ...toDeliveryDraft(stored), closedDates: '2027年5月3日\n5月32日' }
    expect(toDeliverySettings(draft)).toEqual({
      problem: '休配日の2行目「5月32日」は日付として読めません（例: 2027年5月3日）',
    })
  })
})

describe('配送設定 days fields', () => {
  const draft = toDeliveryDraft({
    carrier: 'yamato',
    leadDays: 2,
    extraDaysByPrefecture: { 'JP-47': 2 },
    closedYearEnd: true,
    closedDates: [],
    horizonDays: 21,
    cutoff: '15:00',
  })
  const html = renderToStaticMarkup(
    createElement(AppProvider, { i18n: ja }, createElement(DeliveryDaysFields, { draft, change: () => {} })),
  )

  it('shows the lead, the horizon, the cutoff in Japan time and each far prefecture with its days', () => {
    for (const text of [
      '最短お届け日数',
      '日後から',
      '指定できる期間',
      '日先まで',
      '当日の締め時刻',
      '日本時間',
      '都道府県ごとの追加日数',
      '都道府県を追加',
    ]) {
      expect(html).toContain(text)
    }
    expect(html).toContain('value="2"')
    expect(html).toContain('value="21"')
    expect(html).toContain('value="15:00"')
    expect(html).toContain('沖縄県の追加日数')
    expect(html).toContain('<option value="JP-47" selected="">沖縄県</option>')
  })
})
