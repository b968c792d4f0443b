import { runBilling } from '../apps/server/src/billing/run.ts'
import type { PacedAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { PLANS, RUN_AT, SETTLEMENT, startBillingShop } from './billing-shop.ts'

const API_KEY = 'bench-merchant-key'
const API_SECRET = 'bench-merchant-secret'
const SECRET = 'bench-merchant-login'
const STANDARD = PLANS.standard

type Latencies = { n: number; p50Ms: number; p95Ms: number; maxMs: number }
type MerchantFigures = {
  detail: Latencies
  edit: Latencies
  busy503: number
  statuses: Record<string, number>
}

/**
 * `--only merchant` (issue 11 item 5): a merchant working in the app while a billing run over
 * `due` due contracts spends a Standard shop's rate budget. The app (real HTTP, its job queue),
 * its billing engine and the emulator run in this process (billing-shop.ts: the emulator
 * throttling like the platform, settling each charge 2-12 s after its create and delivering
 * the app's webhooks to it, so their reads take their share of the bucket too). One merchant opens a contract's detail page, waits `thinkMs`, edits
 * its note (with the revision the page showed), waits again, and so on: first for 10 s with no
 * billing (baseline), then for `seconds` while the run bills. Printed: p50/p95/max of the detail
 * read and of the edit, 503s, and the run's progress (attempts per second) for 20 s alone and
 * during the merchant's window, with the points per second all app calls took against the
 * restore rate. Target: p95 ≤ 1 s for both. Edits go to contracts the run does not bill, so
 * no 409 comes from the run changing them.
 */
export async function benchMerchant(opts: {
  baseUrl: string
  due: number
  seconds: number
  thinkMs: number
  log: (line: string) => void
  /** Its own fresh database (default teiki_bench_merchant; `npm run security` uses another). */
  dbName?: string
}) {
  const { log } = opts
  const env = await startBillingShop({
    baseUrl: opts.baseUrl,
    dbName: opts.dbName ?? 'teiki_bench_merchant',
    domain: 'bench-merchant.myshopify.com',
    due: opts.due,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    secret: SECRET,
    plan: 'standard',
    log: (line) => log(`merchant: ${line}`),
  })
  const { pool, app, clients, shop, domain, dueIds, appUrl } = env
  try {
    const isDue = new Set(dueIds)
    const others = (await env.emulator.activeContractIds(domain)).filter((id) => !isDue.has(id)).map(String)
    const merchant = (seconds: number) =>
      merchantLoop({ appUrl, domain, ids: others, seconds, thinkMs: opts.thinkMs })

    log(`merchant: ${10} s without billing (baseline)…`)
    const baseline = await merchant(10)
    log(`merchant: baseline ${describe(baseline)}`)

    const { during, billing, seconds } = await duringBilling({
      run: (signal) =>
        runBilling({ db: pool, clients, shop, now: RUN_AT, engine: app.billingEngine, wait: false, signal }),
      due: dueIds.length,
      attempts: () => env.emulator.attemptsTotal(domain),
      client: clients.clientFor(shop),
      merchant: () => merchant(opts.seconds),
      seconds: opts.seconds,
      log,
    })
    return {
      due: opts.due,
      seconds,
      thinkMs: opts.thinkMs,
      settlementMs: SETTLEMENT,
      rateLimit: STANDARD,
      baseline,
      during,
      billing,
      targets: { detailP95Ms: 1000, editP95Ms: 1000 },
    }
  } finally {
    await env.close()
  }
}

/**
 * Starts the run, lets it drain the bucket (5 s), measures its progress alone for 20 s, then
 * during the merchant's window; stops it after.
 */
async function duringBilling(opts: {
  run: (signal: AbortSignal) => Promise<unknown>
  due: number
  attempts: () => Promise<number>
  client: PacedAdminClient
  merchant: () => Promise<MerchantFigures>
  seconds: number
  log: (line: string) => void
}) {
  const { log, client } = opts
  const stop = new AbortController()
  log(`merchant: billing ${opts.due} due contracts on Standard (100 points/s, bucket 2,000)…`)
  const settled = opts.run(stop.signal).then(
    () => 'finished',
    (error: unknown) => (stop.signal.aborted ? 'stopped' : `failed: ${(error as Error).message}`),
  )
  await new Promise((resolve) => setTimeout(resolve, 5_000))
  const progress = async <T>(work: () => Promise<T>) => {
    const attempts = await opts.attempts()
    const points = client.stats.pointsSpent
    const started = performance.now()
    const result = await work()
    const s = (performance.now() - started) / 1000
    const made = (await opts.attempts()) - attempts
    return {
      result,
      window: { seconds: round(s), attempts: made, attemptsPerSecond: round(made / s) },
      pointsPerSecond: round((client.stats.pointsSpent - points) / s),
    }
  }
  log('merchant: 20 s of billing alone…')
  const alone = await progress(() => new Promise((resolve) => setTimeout(resolve, 20_000)))
  log(`merchant: ${opts.seconds} s of detail pages and note edits during the run…`)
  const withMerchant = await progress(opts.merchant)
  stop.abort()
  const billing = {
    alone: alone.window,
    withMerchant: withMerchant.window,
    /** Points per second all of the app's calls took (billing and merchant). */
    pointsPerSecond: { alone: alone.pointsPerSecond, withMerchant: withMerchant.pointsPerSecond },
    restoreRate: STANDARD.restoreRate,
    run: await settled,
  }
  log(
    `merchant: during billing ${describe(withMerchant.result)}\n` +
      `merchant: billing alone ${billing.alone.attemptsPerSecond} attempts/s, with the merchant ` +
      `${billing.withMerchant.attemptsPerSecond} attempts/s (${billing.withMerchant.attempts} in the window); ` +
      `all app calls ${billing.pointsPerSecond.alone} → ${billing.pointsPerSecond.withMerchant} points/s ` +
      `of the ${STANDARD.restoreRate} restored; run ${billing.run}`,
  )
  return { during: withMerchant.result, billing, seconds: withMerchant.window.seconds }
}

/** One merchant, one action at a time: detail page, think, note edit, think. */
async function merchantLoop(opts: {
  appUrl: string
  domain: string
  ids: string[]
  seconds: number
  thinkMs: number
}): Promise<MerchantFigures> {
  const auth = `shop=${opts.domain}&secret=${SECRET}`
  const detail: number[] = []
  const edit: number[] = []
  const statuses: Record<string, number> = {}
  const think = () => new Promise((resolve) => setTimeout(resolve, opts.thinkMs))
  const timed = async (sink: number[], path: string, init?: RequestInit) => {
    const started = performance.now()
    const res = await fetch(`${opts.appUrl}${path}`, init)
    const body = (await res.json()) as { revision?: string }
    sink.push(performance.now() - started)
    statuses[res.status] = (statuses[res.status] ?? 0) + 1
    return { status: res.status, body }
  }
  const end = performance.now() + opts.seconds * 1000
  for (let i = 0; performance.now() < end; i++) {
    const id = opts.ids[(i * 7919) % opts.ids.length]!
    const page = await timed(detail, `/app-admin/subscriptions/${id}?${auth}`)
    await think()
    if (page.status === 200 && performance.now() < end) {
      await timed(edit, `/app-admin/subscription-contracts/${id}/note?${auth}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ note: `ベンチ ${i}: 置き配希望`, revision: page.body.revision }),
      })
      await think()
    }
  }
  return { detail: latencies(detail), edit: latencies(edit), busy503: statuses[503] ?? 0, statuses }
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b)
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
  return { n: sorted.length, p50Ms: round(pct(50)), p95Ms: round(pct(95)), maxMs: round(sorted.at(-1) ?? 0) }
}

const describe = (f: MerchantFigures) =>
  `detail n ${f.detail.n} p50 ${f.detail.p50Ms} ms p95 ${f.detail.p95Ms} ms (≤ 1000) max ${f.detail.maxMs} ms; ` +
  `edit n ${f.edit.n} p50 ${f.edit.p50Ms} ms p95 ${f.edit.p95Ms} ms (≤ 1000) max ${f.edit.maxMs} ms; ` +
  `503s ${f.busy503}; statuses ${JSON.stringify(f.statuses)}`

const round = (n: number) => Math.round(n * 10) / 10
