import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailer, type Mailer } from '../src/mail/mailer.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { type EmulatedApp, startEmulatedApp } from './support/emulated-app.ts'
import { testPool } from './support/fixtures.ts'
import { startTestMailCatcher } from './support/mail-catcher.ts'

const SECRET = 'contract-mails-secret'
const DOMAIN = `mails-${process.pid}.myshopify.com`
let env: EmulatedApp
let catcher: Awaited<ReturnType<typeof startTestMailCatcher>>
let mailer: Mailer
let dir: string
let mailPool: ReturnType<typeof testPool>

beforeAll(async () => {
  catcher = await startTestMailCatcher()
  dir = await mkdtemp(join(tmpdir(), 'teiki-contract-mails-'))
  mailPool = testPool()
  mailer = createMailer({
    db: mailPool,
    smtpUrl: catcher.smtpUrl,
    outboxDir: dir,
    from: 'Teiki <no-reply@teiki.test>',
  })
  env = await startEmulatedApp({
    shops: [{ domain: DOMAIN, contracts: 8 }],
    secret: SECRET,
    appOptions: { mailer },
  })
  const shop = (await findInstalledShop(env.pool, DOMAIN))!
  await fullSync(env.pool, env.clients[DOMAIN]!, shop)
})
afterAll(async () => {
  await env.close()
  mailer.close()
  await mailPool.end()
  await catcher.close()
  await rm(dir, { recursive: true, force: true })
})

async function activeContract() {
  const { rows } = await env.pool.query<{
    id: string
    customer_id: string
    email: string
    last_name: string
    first_name: string
  }>(
    `select c.id::text, c.customer_id::text, cu.email, cu.last_name, cu.first_name
     from subscription_contracts c join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where c.shop_id = (select id from shops where domain = $1) and c.status = 'ACTIVE' and cu.email is not null
     order by c.id limit 1`,
    [DOMAIN],
  )
  return rows[0]!
}

const act = (action: string, payload: object) =>
  env.app.inject({ method: 'POST', url: `/app-admin/${action}?shop=${DOMAIN}&secret=${SECRET}`, payload })

describe('the customer’s mails about a pause, resume and cancellation', () => {
  it('pause, resume and churn each mail the customer once, with the shop’s templates', async () => {
    const c = await activeContract()
    const ids = { contractId: c.id, customerId: c.customer_id }
    expect((await act('pause', ids)).statusCode).toBe(200)
    const paused = await catcher.waitFor(
      (m) => m.envelopeTo.includes(c.email) && m.subject === '定期便を一時停止しました',
    )
    expect(paused.text).toContain(`${c.last_name} ${c.first_name} 様`)
    expect(paused.text).toContain(`契約番号 ${c.id}`)
    expect(paused.text).toMatch(/・.+ × \d+　¥[\d,]+/)
    // Pausing again changes nothing and mails nothing.
    expect((await act('pause', ids)).statusCode).toBe(200)
    expect((await act('resume', ids)).statusCode).toBe(200)
    const resumed = await catcher.waitFor(
      (m) => m.envelopeTo.includes(c.email) && m.subject === '定期便を再開しました',
    )
    expect(resumed.text).toMatch(/次回ご請求日: \d{4}年\d{1,2}月\d{1,2}日/)
    expect((await act('churn', { ...ids, reason: '引っ越しのため' })).statusCode).toBe(200)
    const cancelled = await catcher.waitFor(
      (m) => m.envelopeTo.includes(c.email) && m.subject === '定期便の解約を承りました',
    )
    expect(cancelled.text).toContain('解約理由: 引っ越しのため')
    expect(catcher.to(c.email).map((m) => m.subject)).toEqual([
      '定期便を一時停止しました',
      '定期便を再開しました',
      '定期便の解約を承りました',
    ])
  })
})
