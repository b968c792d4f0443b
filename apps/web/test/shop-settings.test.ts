import { describe, expect, it } from 'vitest'
import { pageDsn } from '../src/app/report-error.ts'
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
