import { ZBillingRunsResponse } from '@teiki/contract'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startRunHeartbeat } from '../src/billing/run-heartbeat.ts'
import { ABORTED_RUN_MESSAGE } from '../src/billing/run-recovery.ts'
import { createRun, finishRun } from '../src/billing/runs-repo.ts'
import { BILLING_QUEUES, billingJobHandlers, type RunJob } from '../src/jobs/billing-jobs.ts'
import { type BillingEnv, FAR, startBillingEnv } from './support/billing.ts'
import { testDomain } from './support/fixtures.ts'

// A billing run whose process died (issue 11 item 6), in one process: the run is made to look
// like another host's run that stopped beating (the SIGKILL of a real process on this host is
// test/sigkill.test.ts). It is marked 中断 once however many workers sweep, and a `resume` run
// charges what it left: the create it cut off (same key) and the contracts it never reached.

const SCHEMA = `pgboss_recovery_${process.pid}_${Date.now().toString(36)}`
const DOMAIN = testDomain('recovery')
const NOW = new Date('2026-11-25T01:00:00Z')

let env: BillingEnv
let handlers: ReturnType<typeof billingJobHandlers>

beforeAll(async () => {
  env = await startBillingEnv({
    shops: [{ domain: DOMAIN, contracts: 40 }],
    webhooks: true,
    jobsSchema: SCHEMA,
    app: {
      billingJobs: {
        cron: false,
        pollAfterSeconds: 0,
        pollRetryDelaySeconds: 1,
        pollingIntervalSeconds: 0.5,
      },
    },
  })
  handlers = billingJobHandlers({
    jobs: env.jobs!,
    db: env.pool,
    clients: env.clients,
    engine: env.app.billingEngine,
  })
}, 120_000)
afterAll(() => env?.close())

const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 100 })

async function runRow(id: string) {
  const { rows } = await env.pool.query<{
    finished_at: Date | null
    aborted_at: Date | null
    error: string | null
    heartbeat_at: Date
  }>('select finished_at, aborted_at, error, heartbeat_at from billing_runs where id = $1', [id])
  return rows[0]!
}

const summary = {
  shop: DOMAIN,
  now: NOW.toISOString(),
  due: 0,
  attempted: 0,
  succeeded: 0,
  failed: 0,
  skipped: 0,
  alreadyBilled: 0,
}

/**
 * 8 due contracts and a run that dies right after the platform made its third charge (before
 * the attempt id was stored), one contract at a time: two charged, one cut off, five never
 * reached. Left as the database holds it when that happens on another host: unfinished, its
 * heartbeat 10 minutes old.
 */
async function runKilledOnAnotherHost(shopId: string): Promise<{ due: number[]; dead: string }> {
  const due = env.chargeable(DOMAIN, 8)
  const dates = new Map<number, Date>()
  for (const c of env.emulator.store.shop(DOMAIN)!.contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  for (const id of due) dates.set(id, new Date('2026-11-24T01:00:00Z'))
  await env.setNextBillingDates(DOMAIN, dates)
  const killed = {
    afterAttemptCreated: ({ n }: { n: number }) =>
      n === 3 ? Promise.reject(new Error('killed')) : undefined,
  }
  await expect(env.run(DOMAIN, NOW, { concurrency: 1, wait: false, hooks: killed })).rejects.toThrow('killed')
  const { rows } = await env.pool.query<{ id: string }>(
    'select id::text from billing_runs where shop_id = $1',
    [shopId],
  )
  const dead = rows[0]!.id
  await env.pool.query(
    `update billing_runs set finished_at = null, error = null, owner = 'billing-2.example:4242',
       heartbeat_at = now() - interval '10 minutes' where id = $1`,
    [dead],
  )
  return { due, dead }
}

describe('a billing run whose process died', () => {
  it('is marked 中断 once by concurrent sweeps and resumed: the cut-off create and the rest charged once', async () => {
    const shop = await env.shop(DOMAIN)
    const { due, dead } = await runKilledOnAnotherHost(shop.id)
    // Another host's run that is alive (it beat a moment ago): left alone.
    const alive = await createRun(env.pool, shop.id, 'manual', NOW)
    await env.pool.query(`update billing_runs set owner = 'billing-3.example:4243' where id = $1`, [alive])

    const sweeps = await Promise.all([1, 2, 3].map(() => handlers.recover({ shopIds: [shop.id] })))
    expect(sweeps.flat().map((r) => r.id)).toEqual([dead])
    expect(await runRow(dead)).toMatchObject({ error: ABORTED_RUN_MESSAGE })
    expect((await runRow(dead)).aborted_at).not.toBeNull()
    expect((await runRow(alive)).finished_at).toBeNull()
    const jobs = await env.pool.query<{ data: RunJob }>(
      `select data from ${SCHEMA}.job where name = $1 and data->>'shopId' = $2`,
      [BILLING_QUEUES.run, shop.id],
    )
    expect(jobs.rows.map((r) => r.data)).toEqual([
      { shopId: shop.id, date: '2026-11-25', now: NOW.toISOString(), resumeOf: dead },
    ])

    // The app's worker runs the resume; the outcomes come back by webhook.
    await eventually(async () => {
      const cycles = await env.pool.query<{ status: string }>(
        'select status from billing_cycles where shop_id = $1',
        [shop.id],
      )
      expect(cycles.rows.map((r) => r.status)).toEqual(Array(8).fill('succeeded'))
    })
    for (const id of due) {
      expect(env.attempts(DOMAIN, id).filter((a) => a.idempotencyKey?.startsWith('billing:'))).toHaveLength(1)
    }

    // The dead run finishing late (its host came back) keeps its 中断.
    await finishRun(env.pool, shop.id, dead, summary, 'late')
    expect(await runRow(dead)).toMatchObject({ error: ABORTED_RUN_MESSAGE })
    await finishRun(env.pool, shop.id, alive, summary, null)

    // 最近の請求実行: the dead run 中断 with why, the resume below it finished.
    const res = await env.app.inject({ url: `/app-admin/billing/runs?shop=${DOMAIN}&secret=s3cret-billing` })
    const { runs } = ZBillingRunsResponse.parse(res.json())
    expect(runs.find((r) => r.id === dead)).toMatchObject({
      abortedAt: expect.any(String),
      error: ABORTED_RUN_MESSAGE,
    })
    await eventually(async () => {
      const resumed = await env.pool.query<{
        trigger: string
        resumed_from: string
        finished: boolean
        aborted: boolean
      }>(
        `select trigger, resumed_from::text, finished_at is not null as finished, aborted_at is not null as aborted
         from billing_runs where shop_id = $1 and resumed_from is not null`,
        [shop.id],
      )
      expect(resumed.rows).toEqual([
        { trigger: 'resume', resumed_from: dead, finished: true, aborted: false },
      ])
    })
  })

  it('a running run beats until it is stopped', async () => {
    const shop = await env.shop(DOMAIN)
    const id = await createRun(env.pool, shop.id, 'manual', NOW)
    await env.pool.query(`update billing_runs set heartbeat_at = now() - interval '1 hour' where id = $1`, [
      id,
    ])
    const beat = startRunHeartbeat(env.pool, shop.id, id, 20)
    await eventually(async () => {
      const { rows } = await env.pool.query<{ fresh: boolean }>(
        `select heartbeat_at > now() - interval '1 minute' as fresh from billing_runs where id = $1`,
        [id],
      )
      expect(rows[0]!.fresh).toBe(true)
    })
    await beat.stop()
    // Nothing to sweep: it beat a moment ago.
    expect(await handlers.recover({ shopIds: [shop.id] })).toEqual([])
    await finishRun(env.pool, shop.id, id, summary, null)
    expect((await runRow(id)).aborted_at).toBeNull()
  })
})
