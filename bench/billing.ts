import { createEmulator } from '@teiki/shopify-emulator'
import pg from 'pg'
import { runBilling } from '../apps/server/src/billing/run.ts'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { findInstalledShop, upsertShopInstall } from '../apps/server/src/features/shops/repo.ts'
import { sharedShopClients } from '../apps/server/src/features/subscriptions/shop-client.ts'
import { buildApp } from '../apps/server/src/http/app.ts'
import type { PacedAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { fullSync } from '../apps/server/src/sync/full-sync.ts'

const API_KEY = 'bench-billing-key'
const API_SECRET = 'bench-billing-secret'
const PLUS = { restoreRate: 1000, bucketSize: 20_000 }

/**
 * `--only billing` (issue 5): one billing run over `due` due contracts of a Shopify Plus-rate
 * shop (restore 1,000 points/s, bucket 20,000) on the emulator, through the app's own engine,
 * client and HTTP. Measured: attempts per second, and the run's time against the fastest the
 * rate limit allows for the points the run spent: (points − bucket) / restore rate. Target
 * ratio ≥ 0.9. Duplicates: billing attempts per contract beyond one (target 0), counted on
 * the platform's side.
 */
export async function benchBilling(opts: { baseUrl: string; due: number; log: (line: string) => void }) {
  const { log } = opts
  const dbName = 'teiki_bench_billing'
  const admin = new pg.Client({ connectionString: opts.baseUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${dbName} with (force)`)
  await admin.query(`create database ${dbName}`)
  await admin.end()
  const dbUrl = new URL(opts.baseUrl)
  dbUrl.pathname = `/${dbName}`
  const pool = createPool(dbUrl.toString(), 8)
  await migrate(pool)

  const domain = 'bench-billing-plus.myshopify.com'
  // The generated shops mix statuses and card states: enough contracts for `due` chargeable ones.
  const emulator = await createEmulator({
    shops: [{ domain, contracts: Math.ceil(opts.due * 3), plan: 'Shopify Plus' }],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: PLUS,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    billingDelayMs: 5,
  })
  let url = ''
  const app = await buildApp({
    db: pool,
    platform: { adminOrigin: () => url, apiKey: API_KEY },
    apiSecret: API_SECRET,
    logger: { level: 'fatal' },
  })
  await app.ready()
  try {
    url = (await emulator.listen(0)).url
    const install = emulator.install(domain)
    await upsertShopInstall(pool, { domain, accessToken: install.accessToken, scopes: install.scopes })
    const clients = sharedShopClients(app.platformOptions)
    let shop = (await findInstalledShop(pool, domain))!
    log(`billing: syncing ${emulator.store.shop(domain)!.contracts.length} contracts…`)
    await fullSync(pool, clients.clientFor(shop), shop)

    // Due: `due` ACTIVE contracts with a valid card, an hour before the run; every other
    // ACTIVE contract far in the future. Set on the platform and in the mirror alike.
    const platform = emulator.store.shop(domain)!
    const now = new Date('2026-11-25T01:00:00Z')
    const dueAt = new Date(now.getTime() - 3_600_000)
    const far = new Date('2027-06-01T01:00:00Z')
    const chargeable = platform.contracts.filter((c) => {
      const pm = platform.paymentMethods.find((p) => p.id === c.paymentMethodId)
      const card = pm?.instrument as { expiryYear?: number } | undefined
      return c.status === 'ACTIVE' && pm && pm.revokedAt === null && (card?.expiryYear ?? 9999) >= 2027
    })
    if (chargeable.length < opts.due) throw new Error(`only ${chargeable.length} chargeable contracts`)
    const dueIds = new Set(chargeable.slice(0, opts.due).map((c) => c.id))
    for (const c of platform.contracts) {
      if (c.status !== 'ACTIVE') continue
      c.nextBillingDate = (dueIds.has(c.id) ? dueAt : far).getTime()
    }
    shop = (await findInstalledShop(pool, domain))!
    await pool.query(
      `update subscription_contracts set next_billing_date = case when id = any($2::bigint[]) then $3::timestamptz
         else $4::timestamptz end where shop_id = $1 and status = 'ACTIVE'`,
      [shop.id, [...dueIds], dueAt, far],
    )

    const client = clients.clientFor(shop) as PacedAdminClient
    const before = { ...client.stats }
    const attemptsBefore = new Map(platform.contracts.map((c) => [c.id, c.billingAttemptIds.length]))
    // Start with the bucket as a run at the billing hour finds it: full.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    log(
      `billing: run over ${opts.due} due contracts (Plus: ${PLUS.restoreRate} points/s, bucket ${PLUS.bucketSize})…`,
    )
    const started = performance.now()
    const summary = await runBilling({
      db: pool,
      clients,
      shop,
      now,
      engine: app.billingEngine,
      wait: { intervalMs: 200, maxIntervalMs: 1_000, timeoutMs: 600_000 },
    })
    const seconds = (performance.now() - started) / 1000

    const points = client.stats.pointsSpent - before.pointsSpent
    const requests = client.stats.requests - before.requests
    const minimumS = Math.max(0, points - PLUS.bucketSize) / PLUS.restoreRate
    const ratio = minimumS > 0 ? minimumS / seconds : 1
    let duplicates = 0
    let charged = 0
    for (const c of platform.contracts) {
      const added = c.billingAttemptIds.length - (attemptsBefore.get(c.id) ?? 0)
      if (added > 0) charged++
      if (added > 1) duplicates += added - 1
    }
    const attemptsPerS = summary.attempted / seconds
    log(
      `billing: ${JSON.stringify(summary)}\n` +
        `billing: ${summary.attempted} attempts in ${seconds.toFixed(1)} s = ${attemptsPerS.toFixed(1)} attempts/s; ` +
        `${points} points in ${requests} requests (${(points / Math.max(1, summary.attempted)).toFixed(1)} points per billed contract); ` +
        `rate-limit minimum (${points} − ${PLUS.bucketSize}) / ${PLUS.restoreRate} = ${minimumS.toFixed(1)} s → ratio ${ratio.toFixed(3)} (≥ 0.9); ` +
        `contracts charged ${charged}, duplicates ${duplicates} (0); THROTTLED answers ${client.stats.throttled - before.throttled}`,
    )
    return {
      due: opts.due,
      summary,
      seconds: Math.round(seconds * 10) / 10,
      attemptsPerSecond: Math.round(attemptsPerS * 10) / 10,
      pointsSpent: points,
      requests,
      pointsPerBilledContract: Math.round((points / Math.max(1, summary.attempted)) * 10) / 10,
      rateLimitMinimumS: Math.round(minimumS * 10) / 10,
      ratioToRateLimitBound: Math.round(ratio * 1000) / 1000,
      contractsCharged: charged,
      duplicates,
      throttledAnswers: client.stats.throttled - before.throttled,
      targets: { ratioToRateLimitBound: 0.9, duplicates: 0 },
    }
  } finally {
    await app.close()
    await emulator.close()
    await pool.end()
  }
}
