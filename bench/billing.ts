import { runBilling } from '../apps/server/src/billing/run.ts'
import { RUN_AT, startBillingShop } from './billing-shop.ts'

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
  const env = await startBillingShop({
    baseUrl: opts.baseUrl,
    dbName: 'teiki_bench_billing',
    domain: 'bench-billing-plus.myshopify.com',
    due: opts.due,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    emulator: { throttle: PLUS, billingDelayMs: 5 },
    log: (line) => log(`billing: ${line}`),
  })
  const { pool, app, clients, shop } = env
  try {
    const platform = env.emulator.store.shop(env.domain)!
    const now = RUN_AT
    const client = clients.clientFor(shop)
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
    await env.close()
  }
}
