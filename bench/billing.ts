import { availableParallelism } from 'node:os'
import type pg from 'pg'
import { billingJobHandlers } from '../apps/server/src/jobs/billing-jobs.ts'
import { perContract, platformSpend, round1, webhookDeliveries } from './billing-figures.ts'
import {
  PLANS,
  type PlanName,
  RUN_AT,
  SETTLEMENT,
  startBillingShop,
  waitForFullBucket,
} from './billing-shop.ts'
import { processTicks } from './proc-ticks.ts'

const API_KEY = 'bench-billing-key'
const API_SECRET = 'bench-billing-secret'
export const BILLING_TARGETS = { pointsPerBilledContract: 25, ratioToRateLimitBound: 0.9, duplicates: 0 }

/**
 * `--only billing` (issue 12): the day's billing run of a shop as production runs it, twice: on a
 * Standard shop (100 points/s, bucket 2,000) over `standardDue` due contracts and on a Plus shop
 * (1,000 points/s, bucket 20,000) over `plusDue`. The app listens on HTTP with its job queue;
 * the run is the `billing-run` job the billing tick sends; the emulator settles each charge
 * 2-12 s after its create and delivers the webhooks the app subscribes to (attempt
 * success/failure, orders/create, contract updates), which the app applies as they come; a
 * delivery the app fails is retried on the platform's schedule, and the points of those retries
 * count too (the bench waits for them after the last cycle settled).
 * Measured from the emulator's call log (the platform's view, every caller of the shop
 * included): points spent per billed contract (target ≤ 25) and per operation, THROTTLED
 * answers, contracts billed per minute (start of the job to the last cycle settled), and the
 * ratio of the fastest the rate limit allows for the points spent by then ((points − bucket) /
 * restore rate) to the time taken (target ≥ 0.9). Duplicates: attempts per contract beyond one
 * (target 0), counted on the platform.
 */
export async function benchBilling(opts: {
  baseUrl: string
  standardDue: number
  plusDue: number
  log: (line: string) => void
}) {
  const standard = await billingRun({ ...opts, plan: 'standard', due: opts.standardDue })
  const plus = await billingRun({ ...opts, plan: 'plus', due: opts.plusDue })
  return { settlementMs: SETTLEMENT, standard, plus, targets: BILLING_TARGETS }
}

async function billingRun(opts: {
  baseUrl: string
  plan: PlanName
  due: number
  log: (line: string) => void
}) {
  const limit = PLANS[opts.plan]
  const log = (line: string) => opts.log(`billing ${opts.plan}: ${line}`)
  const env = await startBillingShop({
    baseUrl: opts.baseUrl,
    dbName: `teiki_bench_billing_${opts.plan}`,
    domain: `bench-billing-${opts.plan}.myshopify.com`,
    due: opts.due,
    plan: opts.plan,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    log,
  })
  const { pool, emulator, domain, shop } = env
  try {
    const attemptsBefore = await emulator.attemptCounts(domain)
    await waitForFullBucket(emulator, domain)
    const logFrom = await emulator.callLogLength()
    const deliveriesFrom = await emulator.deliveriesLength()
    const client = env.clients.clientFor(shop)
    const clientBefore = { ...client.stats }
    log(`run over ${opts.due} due contracts (${limit.restoreRate} points/s, bucket ${limit.bucketSize})…`)
    const dbName = `teiki_bench_billing_${opts.plan}`
    const ticksBefore = processTicks(undefined, dbName)
    const startedAt = Date.now()
    // What the per-minute tick does at the billing hour: claim the day, send the run job.
    const tick = billingJobHandlers({
      jobs: env.jobs,
      db: pool,
      clients: env.clients,
      engine: env.app.billingEngine,
    })
    if ((await tick.tick(RUN_AT, [shop.id])).length !== 1) throw new Error('the tick started no run')
    const cycles = await untilSettled(
      pool,
      shop.id,
      async () => platformSpend(await emulator.callLog(logFrom, domain), domain, 0),
      log,
    )
    const billedS = (cycles.lastSettledAt - startedAt) / 1000
    // CPU while it billed: this process (the app and, in a worker thread, the emulator) and the
    // database's backends; against the machine's cores, to tell a CPU-bound run from a paced one.
    const ticksAfter = processTicks(undefined, dbName)
    const cpu = {
      appAndEmulatorS: (ticksAfter.loader - ticksBefore.loader) / 100,
      postgresS: (ticksAfter.postgres - ticksBefore.postgres) / 100,
      cores: availableParallelism(),
    }
    // The webhooks the follow-ups caused (contract updates) and the redeliveries of those that
    // failed during the run (the next retry comes about a minute later) are still part of the
    // run's cost: wait for them, up to 20 minutes (a delivery failing still is reported pending).
    await emulator.idle(20 * 60_000).catch(() => log('deliveries still pending after 20 minutes'))
    const calls = await emulator.callLog(logFrom, domain)
    const spend = platformSpend(calls, domain, 0)
    const bySettled = calls
      .filter((e) => e.at.getTime() <= cycles.lastSettledAt)
      .reduce((n, e) => n + (e.actualCost ?? 0), 0)
    const minimumS = Math.max(0, bySettled - limit.bucketSize) / limit.restoreRate
    const figures = figuresOf({
      due: opts.due,
      plan: opts.plan,
      cycles,
      billedS,
      spend,
      bySettled,
      minimumS,
      duplicates: duplicatesOf(await emulator.attemptCounts(domain), attemptsBefore),
      clientThrottled: client.stats.throttled - clientBefore.throttled,
      webhooks: webhookDeliveries(await emulator.deliveries(deliveriesFrom), 0),
      cpu,
    })
    report(log, figures)
    return figures
  } finally {
    await env.close()
  }
}

/**
 * Waits for the run job to finish and every cycle it claimed to settle (webhook or poll job),
 * logging progress every 30 s. Answers the counts and when the last cycle settled.
 */
async function untilSettled(
  pool: pg.Pool,
  shopId: string,
  spent: () => Promise<{ points: number }>,
  log: (line: string) => void,
) {
  let lastLog = Date.now()
  const deadline = Date.now() + 3 * 3_600_000
  for (;;) {
    if (Date.now() > deadline) throw new Error('the run did not settle within 3 hours')
    const { rows } = await pool.query<{
      run: Record<string, unknown> | null
      attempting: number
      succeeded: number
      failed: number
      last: Date | null
    }>(
      `select (select to_jsonb(r) - 'id' - 'shop_id' from billing_runs r where r.shop_id = $1 and r.finished_at is not null
                limit 1) as run,
         count(*) filter (where status = 'attempting')::int as attempting,
         count(*) filter (where status = 'succeeded')::int as succeeded,
         count(*) filter (where status in ('failed', 'retry_scheduled'))::int as failed,
         max(settled_at) as last
       from billing_cycles where shop_id = $1`,
      [shopId],
    )
    const r = rows[0]!
    if (r.run?.error) throw new Error(`the run failed: ${String(r.run.error)}`)
    if (r.run && r.attempting === 0 && r.last)
      return { run: r.run, succeeded: r.succeeded, failed: r.failed, lastSettledAt: r.last.getTime() }
    if (Date.now() - lastLog >= 30_000) {
      lastLog = Date.now()
      log(
        `${r.succeeded} billed, ${r.attempting} waiting for their outcome, ${(await spent()).points} points so far`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

type Settled = Awaited<ReturnType<typeof untilSettled>>

function figuresOf(m: {
  due: number
  plan: PlanName
  cycles: Settled
  billedS: number
  spend: ReturnType<typeof platformSpend>
  bySettled: number
  minimumS: number
  duplicates: { charged: number; duplicates: number }
  clientThrottled: number
  webhooks: ReturnType<typeof webhookDeliveries>
  cpu: { appAndEmulatorS: number; postgresS: number; cores: number }
}) {
  const limit = PLANS[m.plan]
  const billed = m.cycles.succeeded
  const pointsPerBilled = m.spend.points / Math.max(1, billed)
  return {
    due: m.due,
    rateLimit: limit,
    run: m.cycles.run,
    billed,
    failed: m.cycles.failed,
    billedSeconds: round1(m.billedS),
    contractsBilledPerMinute: round1((billed / m.billedS) * 60),
    /** Contracts per minute the restore rate alone allows at this run's points per contract. */
    rateLimitContractsPerMinute: round1((60 * limit.restoreRate) / pointsPerBilled),
    pointsSpent: m.spend.points,
    pointsAfterLastSettled: m.spend.points - m.bySettled,
    calls: m.spend.calls,
    pointsPerBilledContract: round1(pointsPerBilled),
    pointsPerBilledContractByOperation: perContract(m.spend.byOperation, billed),
    byOperation: m.spend.byOperation,
    rateLimitMinimumS: round1(m.minimumS),
    ratioToRateLimitBound: Math.round((m.minimumS > 0 ? m.minimumS / m.billedS : 1) * 1000) / 1000,
    throttledAnswers: m.spend.throttled,
    clientThrottled: m.clientThrottled,
    contractsCharged: m.duplicates.charged,
    duplicates: m.duplicates.duplicates,
    webhooks: m.webhooks,
    cpu: {
      ...m.cpu,
      /** Share of the machine's cores busy while it billed (1 = every core all the time). */
      busy: Math.round(((m.cpu.appAndEmulatorS + m.cpu.postgresS) / (m.billedS * m.cpu.cores)) * 1000) / 1000,
      msPerBilledContract: round1(((m.cpu.appAndEmulatorS + m.cpu.postgresS) * 1000) / Math.max(1, billed)),
    },
  }
}

/** Contracts charged in the run and attempts beyond one per contract, on the platform's side. */
function duplicatesOf(after: Record<string, number>, before: Record<string, number>) {
  let duplicates = 0
  let charged = 0
  for (const [id, count] of Object.entries(after)) {
    const added = count - (before[id] ?? 0)
    if (added > 0) charged++
    if (added > 1) duplicates += added - 1
  }
  return { charged, duplicates }
}

function report(log: (line: string) => void, f: ReturnType<typeof figuresOf>) {
  const top = Object.entries(f.pointsPerBilledContractByOperation)
    .slice(0, 8)
    .map(([name, p]) => `${name} ${p}`)
    .join(', ')
  const hooks = f.webhooks
  const topics = Object.entries(hooks.byTopic)
    .map(([t, h]) => `${t} ${h.events}${h.failed ? ` (${h.failed} failed)` : ''}`)
    .join(', ')
  log(
    `${JSON.stringify(f.run)}\n` +
      `  ${f.billed} billed in ${f.billedSeconds} s = ${f.contractsBilledPerMinute} contracts/min ` +
      `(the restore rate allows ${f.rateLimitContractsPerMinute}/min at these points per contract)\n` +
      `  ${f.pointsSpent} points in ${f.calls} calls = ${f.pointsPerBilledContract} points per billed contract (≤ 35 with the order attributes, ADR 0037); ` +
      `${f.pointsAfterLastSettled} of them after the last settlement\n` +
      `  per billed contract: ${top}\n` +
      `  rate-limit minimum ${f.rateLimitMinimumS} s → ratio ${f.ratioToRateLimitBound} (≥ 0.9); ` +
      `THROTTLED ${f.throttledAnswers} (client saw ${f.clientThrottled}); charged ${f.contractsCharged}, duplicates ${f.duplicates} (0)\n` +
      `  webhooks: ${topics}; ${hooks.failedFirst} failed their first try, ${hooks.retried} redeliveries, ` +
      `${hooks.pending} still waiting for a retry\n` +
      `  CPU while billing: app + emulator ${f.cpu.appAndEmulatorS} s, PostgreSQL ${f.cpu.postgresS} s ` +
      `= ${f.cpu.msPerBilledContract} ms per contract; ${Math.round(f.cpu.busy * 100)}% of ${f.cpu.cores} cores busy`,
  )
}
