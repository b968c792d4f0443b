import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { pageDsn } from '../src/app/report-error.ts'
import { DeliveryDaysFields } from '../src/features/settings/delivery-days-fields.tsx'
import { toDeliveryDraft, toDeliverySettings } from '../src/features/settings/delivery-form.ts'
import { fieldOfMessage, toDraft, toSettings } from '../src/features/settings/settings-form.ts'
import { ThankYouCard } from '../src/features/settings/thank-you-card.tsx'

describe('settings form', () => {
  it('shows the サンクスページ settings as their parts and sends them as one JSON text (spec §3)', () => {
    const thankYou = {
      message: 'ありがとうございます',
      tags: [{ name: 'A8', url: 'https://px.example/cv?so={order_id}', subscriptionOnly: true }],
      legacyScript: '<script>old()</script>',
    }
    const stored = {
      noteAttribute: '[]',
      skuConversions: '[{"from":"A","to":"B"}]',
      thankPageScript: JSON.stringify(thankYou, null, 2),
      deliveryPrepDays: 3,
    }
    const draft = toDraft(stored)
    expect(draft).toMatchObject({
      thankYouMessage: 'ありがとうございます',
      legacyScript: '<script>old()</script>',
      deliveryPrepDays: '3',
    })
    expect(JSON.parse(draft.conversionTags)).toEqual(thankYou.tags)
    expect(toSettings(draft)).toEqual(stored)
  })

  it('nothing set is "" on the wire; tags that are not JSON are refused on their own field, with their line', () => {
    const empty = toDraft({
      noteAttribute: '[]',
      skuConversions: '[]',
      thankPageScript: '""',
      deliveryPrepDays: 0,
    })
    expect(empty).toMatchObject({ thankYouMessage: '', conversionTags: '[]', legacyScript: '' })
    expect(toSettings(empty)).toMatchObject({ thankPageScript: '""' })
    expect(toSettings({ ...empty, conversionTags: '[\n  {"name": }\n]' })).toEqual({
      field: 'conversionTags',
      message: '計測タグのJSONが正しくありません（2行目 12文字目付近）。JSONの形式で入力してください',
    })
  })

  it.each([
    ['SKU変換のJSONが正しくありません（2行目 22文字目付近）', 'skuConversions'],
    ['注文メモ属性の1件目に "key" がありません', 'noteAttribute'],
    ['計測タグの1件目の "url" は https:// で始まるURLで入力してください', 'conversionTags'],
    ['サンクスページのメッセージは1000文字以内にしてください', 'thankYouMessage'],
    ['サンクスページの設定の "script" は使えない項目です', 'conversionTags'],
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

describe('設定 › サンクスページ says where each part goes', () => {
  const render = (legacyScript: string, status: 'connected' | 'failed') =>
    renderToStaticMarkup(
      createElement(
        AppProvider,
        { i18n: ja },
        createElement(ThankYouCard, {
          bind: (field) => ({ value: field, onChange: () => {}, error: undefined, autoComplete: 'off' }),
          legacyScript,
          clearLegacy: () => {},
          pixel: {
            status,
            webPixelId: null,
            connectedAt: null,
            checkedAt: null,
            error: status === 'failed' ? '権限がありません' : null,
          },
        }),
      ),
    ).replace(/<[^>]+>/g, ' ')

  it('the message to the thank-you block, the tags to the web pixel (with its state); an old script is shown as not run', () => {
    const html = render('<script>old()</script>', 'failed')
    expect(html).toContain('注文完了ページの「定期便のご案内」ブロック')
    expect(html).toContain('アプリのウェブピクセルがこのURLを読み込みます')
    expect(html).toContain('{order_id}＝注文ID（数字）')
    expect(html).toContain('ウェブピクセル: 接続できていません：権限がありません')
    expect(html).toContain('以前保存したスクリプトは実行されていません')
    expect(html).toContain('以前のスクリプトを削除')
    const clean = render('', 'connected')
    expect(clean).toContain('ウェブピクセル: 接続済み')
    expect(clean).not.toContain('以前保存したスクリプト')
  })
})
