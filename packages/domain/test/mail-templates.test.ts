import { describe, expect, it } from 'vitest'
import {
  DEFAULT_MAIL_TEMPLATES,
  formatMailValue,
  MAIL_TEMPLATE_TYPES,
  MAIL_VARIABLES,
  type MailValues,
  mailTemplateProblems,
  renderMailTemplate,
  TEMPLATE_VARIABLES,
  upcomingNoticeWindow,
} from '../src/index.ts'

const TZ = 'Asia/Tokyo'

/** A value for every variable: what a sample contract gives the preview. */
const sample: Required<MailValues> = {
  customerName: { lastName: '山田', firstName: '花子', displayName: 'Hanako Yamada' },
  shopName: '茶葉の森',
  contractId: '1234567',
  lines: [
    {
      title: '煎茶',
      variantTitle: '100g',
      quantity: 2,
      unitPrice: { amount: '1980.0', currencyCode: 'JPY' },
    },
    { title: '玄米茶', quantity: 1, unitPrice: { amount: 1200, currencyCode: 'JPY' } },
  ],
  amount: { amount: '5160.0', currencyCode: 'JPY' },
  orderName: '#1042',
  // 2026-11-23T15:30Z is already the 24th in Japan: the zone decides the day.
  billingDate: new Date('2026-11-23T15:30:00Z'),
  nextBillingDate: '2026-12-24',
  deliveryDate: new Date('2026-12-26T01:00:00Z'),
  isFinalDelivery: true,
  failureReason: 'ご登録のお支払い方法で決済を完了できなかったため',
  retryDate: new Date('2026-11-28T01:00:00Z'),
  paymentAdvice: 'お支払い方法をご確認ください。',
  finalAction: '定期便を解約いたしました。',
  challengeUrl: 'https://pay.example/3ds?x=1&y=2',
  challengeDeadline: new Date('2026-11-27T01:05:00Z'),
  changeSummary: '次回のお届けをスキップしました。',
  cancellationReason: '飲みきれないため',
  exportCount: 12345,
  exportFileName: 'contracts-20261124.csv',
  exportDetails: '絞り込み条件: なし',
}

describe('mail variables', () => {
  // Every variable, written the Japanese way.
  it.each([
    ['customerName', '山田 花子'], // family name first, never the displayName when parts exist
    ['shopName', '茶葉の森'],
    ['contractId', '1234567'],
    ['lines', '・煎茶（100g） × 2　¥3,960\n・玄米茶 × 1　¥1,200'],
    ['amount', '¥5,160'], // half-width yen, thousands separator, no decimals
    ['orderName', '#1042'],
    ['billingDate', '2026年11月24日'], // Japan's day, not UTC's 23rd
    ['nextBillingDate', '2026年12月24日'],
    ['deliveryDate', '2026年12月26日'],
    ['isFinalDelivery', 'はい'],
    ['failureReason', 'ご登録のお支払い方法で決済を完了できなかったため'],
    ['retryDate', '2026年11月28日'],
    ['paymentAdvice', 'お支払い方法をご確認ください。'],
    ['finalAction', '定期便を解約いたしました。'],
    ['challengeUrl', 'https://pay.example/3ds?x=1&y=2'],
    ['challengeDeadline', '2026年11月27日 10:05'],
    ['cancellationReason', '飲みきれないため'],
    ['exportCount', '12,345'],
    ['exportFileName', 'contracts-20261124.csv'],
    ['exportDetails', '絞り込み条件: なし'],
  ] as const)('{{%s}} → %s', (name, expected) => {
    expect(formatMailValue(name, sample, TZ)).toBe(expected)
  })

  it('covers every declared variable in the table above', () => {
    expect(Object.keys(sample).sort()).toEqual(Object.keys(MAIL_VARIABLES).sort())
  })

  it('a customer with only a display name keeps it; missing values render as nothing', () => {
    expect(formatMailValue('customerName', { customerName: { displayName: 'Taro' } }, TZ)).toBe('Taro')
    expect(formatMailValue('retryDate', { retryDate: null }, TZ)).toBeNull()
    expect(formatMailValue('lines', { lines: [] }, TZ)).toBeNull()
    expect(formatMailValue('isFinalDelivery', { isFinalDelivery: false }, TZ)).toBeNull()
  })

  it('USD amounts keep their cents and dollar sign', () => {
    expect(formatMailValue('amount', { amount: { amount: '12.5', currencyCode: 'USD' } }, TZ)).toBe('$12.50')
  })
})

describe('mail template rendering', () => {
  const template = {
    title: '{{shopName}}より: {{customerName}}様\nのご注文',
    body: '{{customerName}} 様\n{{#retryDate}}\n再決済日: {{retryDate}}\n{{/retryDate}}\n{{^retryDate}}\n再決済はありません。\n{{/retryDate}}\n金額 {{ amount }}',
    signature: '{{shopName}}',
  }

  it('fills every variable, drops the sections of missing values, and appends the signature', () => {
    const mail = renderMailTemplate(
      'upcoming_billing',
      { ...template, body: template.body.replaceAll('retryDate', 'deliveryDate') },
      sample,
      TZ,
    )
    expect(mail.subject).toBe('茶葉の森より: 山田 花子様 のご注文')
    expect(mail.text).toBe('山田 花子 様\n再決済日: 2026年12月26日\n金額 ¥5,160\n\n茶葉の森\n')
    const without = renderMailTemplate(
      'upcoming_billing',
      { ...template, body: template.body.replaceAll('retryDate', 'deliveryDate') },
      { ...sample, deliveryDate: null },
      TZ,
    )
    expect(without.text).toBe('山田 花子 様\n再決済はありません。\n金額 ¥5,160\n\n茶葉の森\n')
  })

  it('escapes HTML in the merchant’s text and in the values of the HTML part; the text part stays as typed', () => {
    const mail = renderMailTemplate(
      'cancellation',
      { title: '<b>解約</b>', body: '<script>alert(1)</script> {{cancellationReason}}', signature: '' },
      { ...sample, cancellationReason: '"高い" & <遅い>' },
      TZ,
    )
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;高い&quot; &amp; &lt;遅い&gt;')
    expect(mail.html).not.toContain('<script>')
    expect(mail.text).toBe('<script>alert(1)</script> "高い" & <遅い>\n')
    expect(mail.subject).toBe('<b>解約</b>')
  })

  it('line breaks become <br> in the HTML part', () => {
    const mail = renderMailTemplate(
      'pause',
      { title: 't', body: '一行目\n二行目', signature: '署名' },
      sample,
      TZ,
    )
    expect(mail.html).toContain('一行目<br>\n二行目<br>\n<br>\n署名')
  })
})

describe('mail template problems', () => {
  it('refuses an unknown variable with a message naming it and listing the usable ones', () => {
    const problems = mailTemplateProblems('pause', {
      title: '{{shopName}}',
      body: '{{customerNmae}} 様',
      signature: '',
    })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('本文の {{customerNmae}} は使えない変数です')
    expect(problems[0]).toContain('{{customerName}}、{{shopName}}、{{contractId}}、{{lines}}')
  })

  it('a variable of another mail is refused too (the retry date has no place in a pause mail)', () => {
    expect(mailTemplateProblems('pause', { title: '', body: '', signature: '{{retryDate}}' })[0]).toContain(
      '署名の {{retryDate}} は使えない変数です',
    )
  })

  it.each([
    ['{{#lines}}', '本文の {{#lines}} が {{/lines}} で閉じられていません'],
    ['{{/lines}}', '本文の {{/lines}} に対応する {{#lines}} がありません'],
    ['{{お名前}}', '本文の変数の書き方が正しくありません: {{お名前}}'],
  ])('%s → %s', (body, message) => {
    expect(mailTemplateProblems('pause', { title: 'x', body, signature: '' })[0]).toContain(message)
  })

  // Before, the parser read an unclosed placeholder as text: saved, and mailed as written.
  it.each([
    [{ title: 'ご注文 {{customerName', body: 'x' }, '件名の {{customerName は閉じられていません'],
    [
      { title: 'x', body: '一行目\n合計 {{ amount } 円です' },
      '本文の2行目の {{ amount } は閉じられていません',
    ],
    [
      { title: 'x', body: '{{customerName}} 様\n\n{{', signature: '' },
      '本文の3行目の {{ は閉じられていません',
    ],
    [
      { title: 'x', body: 'x', signature: '店長\n{{shopName' },
      '署名の2行目の {{shopName は閉じられていません',
    ],
    [{ title: 'x', body: '合計 amount}} 円' }, '本文の1行目の amount}} に対応する {{ がありません'],
    [{ title: '{ amount }} 円', body: 'x' }, '件名の { amount }} に対応する {{ がありません'],
  ])('an unclosed placeholder %j is refused with its line and fragment', (t, message) => {
    const problems = mailTemplateProblems('payment_failure', { signature: '', ...t })
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain(message)
  })

  it('whole placeholders beside braces of no placeholder are not refused', () => {
    const body = '{{customerName}} 様 {{{customerName}}} {x} }{'
    expect(mailTemplateProblems('payment_failure', { title: 'x', body, signature: '' })).toEqual([])
  })

  it('rendering a broken template throws instead of sending it', () => {
    expect(() =>
      renderMailTemplate('pause', { title: 'x', body: '{{nope}}', signature: '' }, sample, TZ),
    ).toThrow(/{{nope}}/)
  })
})

describe('default templates', () => {
  it.each(MAIL_TEMPLATE_TYPES)('%s: uses only its own variables and renders with a sample', (type) => {
    expect(mailTemplateProblems(type, DEFAULT_MAIL_TEMPLATES[type])).toEqual([])
    const mail = renderMailTemplate(type, DEFAULT_MAIL_TEMPLATES[type], sample, TZ)
    expect(mail.subject).not.toBe('')
    expect(mail.text).not.toMatch(/\{\{|\n{3,}/)
    for (const name of TEMPLATE_VARIABLES[type]) expect(name in MAIL_VARIABLES).toBe(true)
  })

  it('the payment failure mail keeps the engine’s sentences', () => {
    const mail = renderMailTemplate('payment_failure', DEFAULT_MAIL_TEMPLATES.payment_failure, sample, TZ)
    expect(mail.text).toContain(
      '2026年11月24日の定期便は、ご登録のお支払い方法で決済を完了できなかったため、ご注文を承れませんでした。',
    )
    expect(mail.text).toContain(
      '2026年11月28日にあらためてご注文をお受けします。\nお支払い方法をご確認ください。',
    )
    expect(mail.text.startsWith('山田 花子 様\n\n茶葉の森をご利用いただきありがとうございます。\n')).toBe(
      true,
    )
  })

  it('the order mail says the final delivery instead of a next date', () => {
    const last = renderMailTemplate(
      'order_confirmation',
      DEFAULT_MAIL_TEMPLATES.order_confirmation,
      sample,
      TZ,
    )
    expect(last.text).toContain('今回のお届けで定期便は最終回となります。')
    expect(last.text).not.toContain('次回ご請求日')
    const next = renderMailTemplate(
      'order_confirmation',
      DEFAULT_MAIL_TEMPLATES.order_confirmation,
      { ...sample, isFinalDelivery: false },
      TZ,
    )
    expect(next.text).toContain(
      'ご請求金額: ¥5,160\n次回ご請求日: 2026年12月24日\n次回お届け予定日: 2026年12月26日\n\n今後とも',
    )
  })
})

describe('upcoming billing notice window', () => {
  it.each([
    // 2026-11-24 08:59 JST: before the notice hour, nothing yet.
    ['2026-11-23T23:59:00Z', null],
    // 09:00 JST on the 24th: contracts billed on the 27th (Japan time).
    [
      '2026-11-24T00:00:00Z',
      { day: '2026-11-27', start: '2026-11-26T15:00:00.000Z', endExclusive: '2026-11-27T15:00:00.000Z' },
    ],
    // 23:30 JST on the 24th is still the 24th in Japan (UTC is already the 24th, 14:30).
    [
      '2026-11-24T14:30:00Z',
      { day: '2026-11-27', start: '2026-11-26T15:00:00.000Z', endExclusive: '2026-11-27T15:00:00.000Z' },
    ],
  ])('at %s → %j', (now, expected) => {
    const w = upcomingNoticeWindow(new Date(now), 'Asia/Tokyo')
    expect(
      w && { day: w.day, start: w.start.toISOString(), endExclusive: w.endExclusive.toISOString() },
    ).toEqual(expected)
  })
})
