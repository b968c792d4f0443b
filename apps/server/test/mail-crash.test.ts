import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { createMailer } from '../src/mail/mailer.ts'
import { createShop, testPool } from './support/fixtures.ts'
import { startTestMailCatcher } from './support/mail-catcher.ts'

const ROOT = join(import.meta.dirname, '../../..')
let pool: pg.Pool
let shop: Awaited<ReturnType<typeof createShop>>
let catcher: Awaited<ReturnType<typeof startTestMailCatcher>>

beforeAll(async () => {
  pool = testPool()
  shop = await createShop(pool, { prefix: 'mailcrash' })
  catcher = await startTestMailCatcher()
})
afterAll(async () => {
  await pool.end()
  await catcher.close()
})

/** Runs the child that decides 5 mails and is SIGKILLed at `stage`; answers the rows it made. */
function killedSender(
  tag: string,
  stage: 'decided' | 'claimed',
): Promise<{ ids: string[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'apps/server/test/support/outbox-crash-child.ts'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: inject('databaseUrl'),
          SHOP_ID: shop.id,
          SMTP_URL: catcher.smtpUrl,
          TAG: tag,
          STAGE: stage,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let out = ''
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString()
    })
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString()
    })
    child.on('error', reject)
    child.on('exit', (_code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('['))
      if (!line) reject(new Error(`the child wrote no ids:\n${out}`))
      else resolve({ ids: JSON.parse(line) as string[], signal })
    })
  })
}

async function statuses(ids: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ status: string }>(
    'select status from mail_outbox where id = any($1::bigint[]) order by id',
    [ids],
  )
  return rows.map((r) => r.status)
}

describe('mail outbox across a killed process, read from the SMTP catcher', () => {
  for (const stage of ['decided', 'claimed'] as const) {
    it(`a process SIGKILLed after its mails were ${stage}: the restarted app sends each exactly once`, async () => {
      const tag = `crash-${stage}`
      const { ids, signal } = await killedSender(tag, stage)
      expect(signal).toBe('SIGKILL')
      expect(ids).toHaveLength(5)
      expect(await statuses(ids)).toEqual(Array(5).fill(stage === 'decided' ? 'pending' : 'sending'))
      expect(catcher.list().filter((m) => m.envelopeTo[0]?.startsWith(tag))).toHaveLength(0)

      // The restart: a new process's mailer drains (as the mail-drain job does at start).
      const restarted = createMailer({
        db: pool,
        smtpUrl: catcher.smtpUrl,
        outboxDir: '/nonexistent',
        from: 'Teiki <no-reply@teiki.test>',
      })
      try {
        await restarted.drain()
        await restarted.drain()
      } finally {
        restarted.close()
      }
      const mails = catcher.list().filter((m) => m.envelopeTo[0]?.startsWith(tag))
      expect(mails.map((m) => m.envelopeTo[0]).sort()).toEqual(
        [0, 1, 2, 3, 4].map((i) => `${tag}-${i}@example.jp`),
      )
      expect(mails.map((m) => m.messageId).sort()).toEqual(
        ids.map((id) => `<outbox-${id}@teiki.test>`).sort(),
      )
      expect(mails.find((m) => m.envelopeTo[0] === `${tag}-0@example.jp`)?.subject).toBe(
        'お支払いを確認できませんでした（1）',
      )
      expect(await statuses(ids)).toEqual(Array(5).fill('sent'))
    })
  }

  it('the decision repeated after the restart (same dedupe keys) mails nobody again', async () => {
    // The drain is shop-wide by design and other files share the database: count this test's mails only.
    const ours = () => catcher.list().filter((m) => m.envelopeTo[0]?.startsWith('crash-decided')).length
    const before = ours()
    expect(before).toBe(5)
    const { ids } = await killedSender('crash-decided', 'decided')
    // Every dedupe key was used: nothing new was recorded, nothing is sent.
    expect(ids.every((id) => id === null)).toBe(true)
    const mailer = createMailer({
      db: pool,
      smtpUrl: catcher.smtpUrl,
      outboxDir: '/nonexistent',
      from: 'a@teiki.test',
    })
    await mailer.drain()
    mailer.close()
    expect(ours()).toBe(before)
  })
})
