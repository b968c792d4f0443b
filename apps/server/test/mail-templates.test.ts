import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ZCustomShopMail,
  ZErrorResponse,
  ZMailAddressResponse,
  ZMailTemplateList,
  ZMailTemplateResponse,
  ZTestMailResponse,
} from '@teiki/contract'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composeMail } from '../src/features/mail-templates/service.ts'
import { sendUpcomingNotices } from '../src/features/mail-templates/upcoming-notice.ts'
import { setShopFlag } from '../src/features/shop-flags/service.ts'
import type { AppInstance } from '../src/http/app.ts'
import { createMailer, type Mailer } from '../src/mail/mailer.ts'
import { findShopById } from '../src/platform/shops-repo.ts'
import { buildTestApp, createShop, seedContracts, testPool } from './support/fixtures.ts'
import { startTestMailCatcher } from './support/mail-catcher.ts'

let pool: pg.Pool
let app: AppInstance
let mailer: Mailer
let catcher: Awaited<ReturnType<typeof startTestMailCatcher>>
let dir: string
let shop: Awaited<ReturnType<typeof createShop>>
let other: Awaited<ReturnType<typeof createShop>>

beforeAll(async () => {
  pool = testPool()
  catcher = await startTestMailCatcher()
  dir = await mkdtemp(join(tmpdir(), 'teiki-mail-templates-'))
  mailer = createMailer({
    db: pool,
    smtpUrl: catcher.smtpUrl,
    outboxDir: dir,
    from: 'Teiki <no-reply@teiki.test>',
  })
  app = await buildTestApp(pool, {
    logger: { level: 'error' },
    mailer,
    mailFrom: 'Teiki <no-reply@teiki.test>',
    mailViewerUrl: 'http://127.0.0.1:9/',
    now: () => new Date('2026-11-24T01:00:00Z'),
  })
  await app.ready()
  shop = await createShop(pool, { prefix: 'mailtpl' })
  other = await createShop(pool, { prefix: 'mailtpl-other' })
  await pool.query(`update shops set name = '茶葉の森' where id = $1`, [shop.id])
  await seedContracts(pool, shop.id, [
    {
      id: '88001',
      customer: { id: '77001', firstName: '花子', lastName: '山田', email: 'hanako@example.jp' },
      nextBillingDate: '2026-12-10T01:00:00Z',
    },
  ])
  await pool.query(
    `insert into subscription_lines (shop_id, contract_id, id, title, variant_title, quantity, current_price, position)
     values ($1, 88001, 'gid://shopify/SubscriptionLine/x1', '煎茶', '100g', 2, 1980, 0)`,
    [shop.id],
  )
  // Its line's pricing policy as the first sync keeps it (none: the line keeps its price), true
  // at the mirrored state, so the notice's quote needs no platform read.
  await pool.query(
    `update subscription_contracts set line_pricing = $2, line_pricing_revision = revision_id,
       line_pricing_updated_at = updated_at where shop_id = $1 and id = 88001`,
    [
      shop.id,
      JSON.stringify([
        { id: 'gid://shopify/SubscriptionLine/x1', currentPrice: '1980', pricingPolicy: null },
      ]),
    ],
  )
})
afterAll(async () => {
  await app.close()
  mailer.close()
  await catcher.close()
  await pool.end()
  await rm(dir, { recursive: true, force: true })
})

function call(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, payload?: object, as = shop) {
  return app.inject({
    method,
    url: `/app-admin${path}${path.includes('?') ? '&' : '?'}shop=${as.domain}&secret=${as.secret}`,
    ...(payload ? { payload } : {}),
  })
}

const edited = {
  title: '{{customerName}}様: お支払いについて',
  body: '{{customerName}} 様\n{{billingDate}}の決済ができませんでした。\n再決済日: {{retryDate}}\n{{lines}}',
  signature: '{{shopName}} カスタマーサポート',
}

describe('mail templates', () => {
  it('lists every mail with its default title, and the catcher page', async () => {
    const res = await call('GET', '/mail-templates')
    expect(res.statusCode).toBe(200)
    const list = ZMailTemplateList.parse(res.json())
    expect(list.templates).toHaveLength(10)
    expect(list.templates.find((t) => t.type === 'contract_change')).toEqual({
      type: 'contract_change',
      label: 'ご契約内容の変更（マイページ）',
      title: 'ご契約内容を変更しました',
      customized: false,
    })
    expect(list.templates.find((t) => t.type === 'payment_failure')).toEqual({
      type: 'payment_failure',
      label: '決済失敗（再決済日のご案内）',
      title: '定期便のご注文を承れませんでした',
      customized: false,
    })
    expect(list.mailViewerUrl).toBe('http://127.0.0.1:9/')
  })

  it('answers the default with its variables and a preview from the shop’s newest contract', async () => {
    const t = ZMailTemplateResponse.parse((await call('GET', '/mail-template/payment_failure')).json())
    expect(t.customized).toBe(false)
    expect(t.variables.map((v) => v.name)).toContain('retryDate')
    expect(t.preview.text).toContain('山田 花子 様')
    expect(t.preview.text).toContain('茶葉の森をご利用いただきありがとうございます。')
    expect(t.preview.text).toContain(
      '2026年11月24日の定期便は、ご登録のお支払い方法で決済を完了できなかったため',
    )
    expect(t.preview.text).toContain('2026年11月28日にあらためてご注文をお受けします。')
  })

  it('saves a template and previews it: Japanese name order, 年月日, yen, the contract’s lines', async () => {
    const res = await call('PUT', '/mail-template/payment_failure', edited)
    expect(res.statusCode).toBe(200)
    const t = ZMailTemplateResponse.parse(res.json())
    expect(t).toMatchObject({ ...edited, customized: true })
    expect(t.preview.subject).toBe('山田 花子様: お支払いについて')
    expect(t.preview.text).toBe(
      '山田 花子 様\n2026年11月24日の決済ができませんでした。\n再決済日: 2026年11月28日\n・煎茶（100g） × 2　¥3,960\n\n茶葉の森 カスタマーサポート\n',
    )
  })

  it('another shop still has the default (templates are per shop)', async () => {
    const t = ZMailTemplateResponse.parse(
      (await call('GET', '/mail-template/payment_failure', undefined, other)).json(),
    )
    expect(t.customized).toBe(false)
    expect(t.title).toBe('定期便のご注文を承れませんでした')
  })

  it.each([
    [{ ...edited, body: '{{customerNmae}} 様' }, '本文の {{customerNmae}} は使えない変数です'],
    [{ ...edited, title: '{{challengeUrl}}' }, '件名の {{challengeUrl}} は使えない変数です'],
    [{ ...edited, body: '{{#lines}}閉じない' }, '{{#lines}} が {{/lines}} で閉じられていません'],
    [{ ...edited, title: '{{customerName 様' }, '件名の {{customerName は閉じられていません'],
    [
      { ...edited, body: '{{customerName}} 様\nお支払い {{ amount } 円' },
      '本文の2行目の {{ amount } は閉じられていません',
    ],
    [{ ...edited, title: '' }, '件名を入力してください'],
    [{ ...edited, body: '本文\u0000' }, '本文に使用できない制御文字が含まれています'],
    [{ ...edited, title: 'あ'.repeat(201) }, '件名は200文字以内で入力してください'],
    [{ title: 't' }, '本文'],
  ])('refuses %j with 400 in Japanese, keeping what was saved', async (body, message) => {
    const res = await call('PUT', '/mail-template/payment_failure', body)
    expect(res.statusCode).toBe(400)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain(message)
    const kept = ZMailTemplateResponse.parse((await call('GET', '/mail-template/payment_failure')).json())
    expect(kept.body).toBe(edited.body)
  })

  it('an unknown mail type is 400', async () => {
    const res = await call('GET', '/mail-template/newsletter')
    expect(res.statusCode).toBe(400)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain('メールの種類は')
  })

  it('sends a test mail over SMTP with the saved template, read back from the catcher', async () => {
    const res = await call('POST', '/test-mail/payment_failure', { email: 'owner@example.jp' })
    expect(res.statusCode).toBe(200)
    const sent = ZTestMailResponse.parse(res.json())
    expect(sent).toMatchObject({
      status: 'sent',
      to: 'owner@example.jp',
      subject: '【テスト送信】山田 花子様: お支払いについて',
    })
    const mail = await catcher.waitFor((m) => m.envelopeTo.includes('owner@example.jp'))
    expect(mail.subject).toBe('【テスト送信】山田 花子様: お支払いについて')
    expect(mail.text).toContain('再決済日: 2026年11月28日')
    expect(mail.html).toContain('・煎茶（100g） × 2　¥3,960<br>')
    expect(mail.from).toBe('"茶葉の森" <no-reply@teiki.test>')
  })

  it.each([['not-an-address'], ['a@b'], ['<x@example.jp>'], ['']])(
    'a test mail to %j is 400',
    async (email) => {
      const res = await call('POST', '/test-mail/pause', { email })
      expect(res.statusCode).toBe(400)
      expect(ZErrorResponse.parse(res.json()).error.message).toContain('送信先メールアドレス')
    },
  )

  it('DELETE brings the default back', async () => {
    const t = ZMailTemplateResponse.parse((await call('DELETE', '/mail-template/payment_failure')).json())
    expect(t.customized).toBe(false)
    expect(t.title).toBe('定期便のご注文を承れませんでした')
  })
})

describe('the shop’s sender', () => {
  it('sets, reads and clears the shop mail; mails then carry it as Reply-To', async () => {
    expect(ZCustomShopMail.parse((await call('GET', '/custom-shop-mail')).json())).toEqual({ shopMail: null })
    const put = await call('PUT', '/custom-shop-mail', { shopMail: 'support@chaba.example.jp' })
    expect(put.json()).toEqual({ shopMail: 'support@chaba.example.jp' })
    const address = ZMailAddressResponse.parse((await call('GET', '/mail-address')).json())
    expect(address).toEqual({
      from: 'Teiki <no-reply@teiki.test>',
      shopMail: 'support@chaba.example.jp',
      displayFrom: '茶葉の森 <no-reply@teiki.test>',
    })
    expect((await call('GET', '/custom-shop-mail', undefined, other)).json()).toEqual({ shopMail: null })
    await call('POST', '/test-mail/resume', { email: 'reply@example.jp' })
    const mail = await catcher.waitFor((m) => m.envelopeTo.includes('reply@example.jp'))
    expect(mail.raw).toMatch(/^Reply-To: support@chaba\.example\.jp/m)
    expect((await call('PUT', '/custom-shop-mail', { shopMail: '' })).json()).toEqual({ shopMail: null })
  })

  it('refuses an address that is not one', async () => {
    const res = await call('PUT', '/custom-shop-mail', { shopMail: 'support at example' })
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toContain('ストアのメールアドレスの形式が正しくありません')
  })

  it('template_test flag: a customer’s mail goes to the shop’s address, marked with the customer’s', async () => {
    await call('PUT', '/custom-shop-mail', { shopMail: 'check@chaba.example.jp' })
    const row = (await findShopById(pool, shop.id))!
    const values = { customerName: { lastName: '山田', firstName: '花子' }, contractId: '88001' }
    const before = await composeMail(pool, row, { type: 'pause', to: 'hanako@example.jp', values })
    expect(before.to).toBe('hanako@example.jp')
    await setShopFlag(pool, shop.id, 'template_test', true)
    const after = await composeMail(pool, row, { type: 'pause', to: 'hanako@example.jp', values })
    expect(after.to).toBe('check@chaba.example.jp')
    expect(after.subject).toBe('[テンプレート確認: hanako@example.jp宛て] 定期便を一時停止しました')
    expect(after.text).toContain('・煎茶（100g） × 2　¥3,960')
    await setShopFlag(pool, shop.id, 'template_test', false)
  })
})

describe('次回請求のお知らせ (upcoming billing notice)', () => {
  it('mails each contract billed in 3 Japan days once, from 9:00 Japan time, read from the catcher', async () => {
    await call('PUT', '/custom-shop-mail', { shopMail: '' })
    const row = (await findShopById(pool, shop.id))!
    const notices = { db: pool, mailer, quote: app.billingEngine.quoteNextCycle }
    // 2026-12-07 08:30 JST: before the notice hour.
    expect(await sendUpcomingNotices(notices, row, new Date('2026-12-06T23:30:00Z'))).toBe(0)
    // 09:30 JST on the 7th: contract 88001 is billed on the 10th (10:00 JST).
    expect(await sendUpcomingNotices(notices, row, new Date('2026-12-07T00:30:00Z'))).toBe(1)
    expect(await sendUpcomingNotices(notices, row, new Date('2026-12-07T05:00:00Z'))).toBe(0)
    const mail = await catcher.waitFor(
      (m) => m.envelopeTo.includes('hanako@example.jp') && m.subject === '次回の定期便のお知らせ',
    )
    expect(mail.text).toContain('山田 花子 様')
    expect(mail.text).toContain('次回ご請求日: 2026年12月10日')
    expect(mail.text).toContain('ご請求予定金額: ¥3,960')
    expect(mail.text).toContain('・煎茶（100g） × 2　¥3,960')
    // No お届け予定日 on the contract (契約詳細: 指定なし), none in the mail (issue 22: the mail
    // promised the billing date + preparation days).
    expect(mail.text).not.toContain('お届け予定日')
    expect(
      catcher.to('hanako@example.jp').filter((m) => m.subject === '次回の定期便のお知らせ'),
    ).toHaveLength(1)
    // Another shop's contracts are not this shop's to mail.
    const otherRow = (await findShopById(pool, other.id))!
    expect(await sendUpcomingNotices(notices, otherRow, new Date('2026-12-07T00:30:00Z'))).toBe(0)
  })

  it('gives the お届け予定日 契約詳細 shows: the contract’s own, not one counted from the billing date', async () => {
    await seedContracts(pool, shop.id, [
      {
        id: '88002',
        customer: { id: '77002', firstName: '次郎', lastName: '佐藤', email: 'jiro@example.jp' },
        nextBillingDate: '2026-12-11T01:00:00Z',
      },
    ])
    await pool.query(
      `update subscription_contracts set custom_attributes = $2::jsonb where shop_id = $1 and id = 88002`,
      [shop.id, JSON.stringify([{ key: 'お届け予定日', value: '2026-12-15' }])],
    )
    const row = (await findShopById(pool, shop.id))!
    const notices = { db: pool, mailer, quote: app.billingEngine.quoteNextCycle }
    expect(await sendUpcomingNotices(notices, row, new Date('2026-12-08T00:30:00Z'))).toBe(1)
    const mail = await catcher.waitFor((m) => m.envelopeTo.includes('jiro@example.jp'))
    expect(mail.text).toContain('次回ご請求日: 2026年12月11日')
    expect(mail.text).toContain('お届け予定日: 2026年12月15日')
  })
})
