import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import type { AppInstance } from '../../src/http/app.ts'
import { hashSecret } from '../../src/http/auth.ts'
import { type Jobs, startJobs } from '../../src/jobs/boss.ts'
import { createMailer, type Mailer } from '../../src/mail/mailer.ts'
import { createAdminClient } from '../../src/platform/admin-client.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../../src/platform/shops-repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import { buildTestApp, QUICK_RETRIES, TEST_API_KEY, TEST_API_SECRET, testPool } from './fixtures.ts'

export { arrangeSwap, type SwapArrangement } from './batch-arrange.ts'

// The batch updates' world: an emulator, the app with its job queue (its own pg-boss schema,
// so no other file's workers take its jobs) and the mail outbox, each shop installed and
// synced into the mirror.

export type BatchWorld = {
  pool: pg.Pool
  app: AppInstance
  emulator: Emulator
  jobs: Jobs
  mailer: Mailer
  shops: Record<string, ShopRow>
  close(): Promise<void>
}

export async function startBatchWorld(opts: {
  shops: Array<{ domain: string; contracts: number }>
  secret: string
  schema: string
  /** Changes the platform's data before the mirror is filled. */
  arrange?: (emulator: Emulator) => void
}): Promise<BatchWorld> {
  const pool = testPool()
  const emulator = await createEmulator({
    shops: opts.shops,
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
  })
  opts.arrange?.(emulator)
  const url = (await emulator.listen(0)).url
  const dataDir = await mkdtemp(join(tmpdir(), 'teiki-batch-test-'))
  const mailer = createMailer({
    db: pool,
    outboxDir: join(dataDir, 'outbox'),
    from: 'Teiki <no-reply@teiki.invalid>',
  })
  const jobs = await startJobs({ db: pool, schema: opts.schema })
  const app = await buildTestApp(pool, {
    platform: { adminOrigin: () => url, clientRetry: QUICK_RETRIES },
    dataDir,
    mailer,
    jobs,
    batchJobs: { cron: false, pollingIntervalSeconds: 0.5, concurrency: 2 },
    exportJobs: { cron: false },
    mailJobs: { cron: false },
    billingJobs: { cron: false },
  })
  await app.ready()
  const shops: Record<string, ShopRow> = {}
  for (const { domain } of opts.shops) {
    const install = emulator.install(domain)
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(opts.secret),
    })
    const shop = (await findInstalledShop(pool, domain))!
    const client = createAdminClient({ shop: domain, accessToken: install.accessToken, origin: url })
    await fullSync(pool, client, shop, { bulk: false })
    shops[domain] = (await findInstalledShop(pool, domain))!
  }
  return {
    pool,
    app,
    emulator,
    jobs,
    mailer,
    shops,
    async close() {
      await jobs.stop(5_000).catch(() => {})
      await app.close()
      await emulator.close()
      mailer.close()
      await pool.end()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The batch's result mail as the outbox holds it, once its sending is over (the mail catcher of
 * the shop-ops branch can stand in here at merge: this is the one place the batch tests read
 * mail). Null when the batch decided no mail.
 */
export async function batchResultMail(
  pool: pg.Pool,
  shopId: string,
  batchId: string,
): Promise<{ to: string; subject: string; text: string; status: string } | null> {
  for (const deadline = Date.now() + 15_000; ; ) {
    const { rows } = await pool.query<{ to_address: string; subject: string; body: string; status: string }>(
      'select to_address, subject, body, status from mail_outbox where shop_id = $1 and dedupe_key = $2',
      [shopId, `batch:${batchId}`],
    )
    const row = rows[0]
    if (!row) return null
    if ((row.status !== 'pending' && row.status !== 'sending') || Date.now() > deadline) {
      return { to: row.to_address, subject: row.subject, text: row.body, status: row.status }
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
