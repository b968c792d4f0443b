import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailCatcherPage } from '../src/mail/catcher-page.ts'
import { createMailer } from '../src/mail/mailer.ts'
import { createShop, testPool } from './support/fixtures.ts'
import { startTestMailCatcher } from './support/mail-catcher.ts'

let pool: pg.Pool
let shop: Awaited<ReturnType<typeof createShop>>
let dir: string

beforeAll(async () => {
  pool = testPool()
  shop = await createShop(pool, { prefix: 'catcher' })
  dir = await mkdtemp(join(tmpdir(), 'teiki-catcher-test-'))
})
afterAll(async () => {
  await pool.end()
  await rm(dir, { recursive: true, force: true })
})

describe('local SMTP catcher', () => {
  it('receives the outbox’s mail over SMTP, parsed: Japanese subject, body, Message-ID of the row', async () => {
    const catcher = await startTestMailCatcher()
    const mailer = createMailer({
      db: pool,
      smtpUrl: catcher.smtpUrl,
      outboxDir: dir,
      from: 'Teiki <no-reply@teiki.test>',
    })
    try {
      const sent = await mailer.send({
        shopId: shop.id,
        to: 'hanako@example.jp',
        subject: '定期便のご注文を承りました',
        text: '山田 花子 様\n¥1,980（税込）',
      })
      expect(sent.status).toBe('sent')
      const mail = await catcher.waitFor((m) => m.envelopeTo.includes('hanako@example.jp'))
      expect(mail.subject).toBe('定期便のご注文を承りました')
      expect(mail.text.trim()).toBe('山田 花子 様\n¥1,980（税込）')
      expect(mail.messageId).toBe(`<outbox-${sent.id}@teiki.test>`)
      expect(mail.from).toContain('no-reply@teiki.test')
    } finally {
      mailer.close()
      await catcher.close()
    }
  })

  it('waitFor waits for a mail still to come and fails after its timeout', async () => {
    const catcher = await startTestMailCatcher()
    const mailer = createMailer({ db: pool, smtpUrl: catcher.smtpUrl, outboxDir: dir, from: 'a@teiki.test' })
    try {
      const waiting = catcher.waitFor((m) => m.subject === '後から届く', 5_000)
      await mailer.send({ shopId: shop.id, to: 'later@example.jp', subject: '後から届く', text: '本文' })
      expect((await waiting).envelopeTo).toEqual(['later@example.jp'])
      await expect(catcher.waitFor((m) => m.subject === '届かない', 100)).rejects.toThrow(/no mail matched/)
    } finally {
      mailer.close()
      await catcher.close()
    }
  })

  it('keeps its mails across a restart when given a folder, and its page shows them escaped', async () => {
    const folder = join(dir, 'kept')
    const first = await startTestMailCatcher({ dir: folder })
    const mailer = createMailer({ db: pool, smtpUrl: first.smtpUrl, outboxDir: dir, from: 'a@teiki.test' })
    await mailer.send({
      shopId: shop.id,
      to: 'kept@example.jp',
      subject: '<b>残る</b>',
      text: '<script>x</script>',
    })
    mailer.close()
    await first.close()
    const second = await startTestMailCatcher({ dir: folder })
    const page = await startMailCatcherPage(second)
    try {
      expect(second.to('kept@example.jp').map((m) => m.subject)).toEqual(['<b>残る</b>'])
      const html = await (await fetch(page.url)).text()
      expect(html).toContain('&#60;b&#62;残る&#60;/b&#62;')
      expect(html).not.toContain('<script>x')
      const json = (await (await fetch(`${page.url}mails.json`)).json()) as Array<{ subject: string }>
      expect(json.map((m) => m.subject)).toEqual(['<b>残る</b>'])
    } finally {
      await page.close()
      await second.close()
    }
  })
})
