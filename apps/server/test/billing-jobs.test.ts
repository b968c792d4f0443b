import { toZonedDate } from '@teiki/domain'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { putBillingSettings } from '../src/billing/settings.ts'
import { BILLING_QUEUES, billingJobHandlers, type CycleJob } from '../src/jobs/billing-jobs.ts'
import { type BillingEnv, FAR, startBillingEnv } from './support/billing.ts'
import { testDomains } from './support/fixtures.ts'

// pg-boss workers, the per-minute tick, dunning retries as jobs, the outcome poll, billing
// webhooks handing outcomes to the engine, and "create order now" through the engine.

const SCHEMA = `pgboss_test_${process.pid}_${Date.now().toString(36)}`
const shops = testDomains('jobs', ['tick', 'retry', 'poll', 'now'])
const SECRET = 's3cret-billing'

let env: BillingEnv
let handlers: ReturnType<typeof billingJobHandlers>

beforeAll(async () => {
  env = await startBillingEnv({
    shops: Object.values(shops).map((domain) => ({ domain, contracts: 30 })),
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
beforeEach(() => env.emulator.faults.reset())

const platformShop = (domain: string) => env.emulator.store.shop(domain)!
const platformContract = (domain: string, id: number) =>
  platformShop(domain).contracts.find((c) => c.id === id)!
const engineAttempts = (domain: string, id: number) =>
  env
    .attempts(domain, id)
    .filter((a) => a.idempotencyKey?.startsWith('billing:') || a.idempotencyKey?.startsWith('order-now-'))

async function arrange(domain: string, dueAt: Date, count: number) {
  const due = env.chargeable(domain, count)
  const dates = new Map<number, Date>()
  for (const c of platformShop(domain).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  for (const id of due) dates.set(id, dueAt)
  await env.setNextBillingDates(domain, dates)
  return due
}

async function cycleRows(domain: string) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{
    id: string
    contract_id: string
    status: string
    attempt_no: number
    next_retry_at: Date | null
    origin: string
    idempotency_key: string
  }>(
    `select id::text, contract_id::text, status, attempt_no, next_retry_at, origin, idempotency_key
     from billing_cycles where shop_id = $1 order by id`,
    [shop.id],
  )
  return rows
}

async function jobsOf(queue: string, shopId: string) {
  const { rows } = await env.pool.query<{ data: CycleJob; start_after: Date; state: string }>(
    `select data, start_after, state from ${SCHEMA}.job where name = $1 and data->>'shopId' = $2 order by created_on`,
    [queue, shopId],
  )
  return rows
}

async function eventTypes(domain: string, id: number) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ type: string }>(
    'select type from contract_events where shop_id = $1 and contract_id = $2 order by id',
    [shop.id, id],
  )
  return rows.map((r) => r.type)
}

/** Waits (polling the database, never a fixed sleep) until `check` passes or 20 s went by. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 20_000, interval: 100 })

describe('the daily tick', () => {
  it('starts one run per shop and shop-local day at the billing hour, whatever the number of workers', async () => {
    const domain = shops.tick
    const shop = await env.shop(domain)
    const due = await arrange(domain, new Date('2026-11-25T00:00:00Z'), 5)

    // 09:59 in Tokyo: before the default billing hour (10:00).
    expect(await handlers.tick(new Date('2026-11-25T00:59:00Z'), [shop.id])).toEqual([])
    const at = new Date('2026-11-25T01:00:30Z')
    const ticks = await Promise.all([1, 2, 3].map(() => handlers.tick(at, [shop.id])))
    expect(ticks.flat()).toEqual([{ shopId: shop.id, date: '2026-11-25', now: at.toISOString() }])
    expect(await handlers.tick(new Date('2026-11-25T08:00:00Z'), [shop.id])).toEqual([])
    const schedule = await env.pool.query(
      'select last_run_date::text from billing_schedule where shop_id = $1',
      [shop.id],
    )
    expect(schedule.rows).toEqual([{ last_run_date: '2026-11-25' }])

    // The app's worker runs the job; the outcomes come back by webhook and go to the engine.
    await eventually(async () => {
      const rows = await cycleRows(domain)
      expect(rows.map((r) => r.status)).toEqual(Array(5).fill('succeeded'))
    })
    const runs = await env.pool.query(
      'select trigger, due, attempted, succeeded, failed from billing_runs where shop_id = $1',
      [shop.id],
    )
    expect(runs.rows).toEqual([{ trigger: 'schedule', due: 5, attempted: 5, succeeded: 5, failed: 0 }])
    for (const id of due) {
      expect(engineAttempts(domain, id)).toHaveLength(1)
      const types = await eventTypes(domain, id)
      expect(types.filter((t) => t === 'billed')).toHaveLength(1)
      // The engine owns the outcome's history entry: no second, webhook-style one.
      expect(types).not.toContain('billing_succeeded')
    }
    expect(await jobsOf(BILLING_QUEUES.run, shop.id)).toHaveLength(1)
    // Each success webhook handed its outcome to a billing-outcome job (the delivery answered
    // at once): one job per attempt, applied once.
    // A job is still active while it sends the customer's mail after its settlement commits.
    await eventually(async () => {
      const outcomes = await jobsOf(BILLING_QUEUES.outcome, shop.id)
      expect(outcomes).toHaveLength(5)
      expect(outcomes.every((j) => j.state === 'completed')).toBe(true)
    })
    const delivered = env.emulator.webhooks.deliveries.filter(
      (d) => d.shop === domain && d.topic === 'subscription_billing_attempts/success',
    )
    expect(delivered.every((d) => d.status === 'delivered')).toBe(true)

    // The next day (shop-local) is a new run; the schedule moved on, so nothing is due.
    expect(await handlers.tick(new Date('2026-11-26T01:00:00Z'), [shop.id])).toHaveLength(1)
  })
})

describe('dunning retries as jobs', () => {
  it('schedules the retry at next_retry_at; the job and the daily run charge it once between them', async () => {
    const domain = shops.retry
    const shop = await env.shop(domain)
    await putBillingSettings(env.pool, shop.id, {
      billingHour: 10,
      lookbackDays: 2,
      retryAttempts: 3,
      retryIntervalDays: 2,
      finalAction: 'CANCEL',
      inventoryRetryAttempts: 5,
      inventoryRetryIntervalDays: 1,
      inventoryFinalAction: 'SKIP',
      deliveryPrepDays: 0,
    })
    const [id] = await arrange(domain, new Date('2026-11-22T00:00:00Z'), 1)
    env.emulator.faults.failPayment(
      domain,
      platformContract(domain, id!).customerId,
      'PAYMENT_METHOD_DECLINED',
    )

    const first = await env.run(domain, new Date('2026-11-22T02:00:00Z'), { wait: false })
    expect(first).toMatchObject({ attempted: 1 })
    await eventually(async () => {
      expect((await cycleRows(domain))[0]).toMatchObject({ status: 'retry_scheduled', attempt_no: 0 })
    })
    const [row] = await cycleRows(domain)
    // The failure came by webhook (the engine's clock is the real one there): the retry is two
    // shop-local days after it, at the billing hour.
    const expected = new Date(
      `${toZonedDate(new Date(Date.now() + 2 * 86_400_000), 'Asia/Tokyo')}T10:00:00+09:00`,
    )
    expect(row!.next_retry_at?.toISOString()).toBe(expected.toISOString())
    const [job] = await jobsOf(BILLING_QUEUES.retry, shop.id)
    expect(job).toMatchObject({ state: 'created', data: { cycleId: row!.id, attemptNo: 0 } })
    expect(job!.start_after.toISOString()).toBe(expected.toISOString())

    // The job fires at its time: the retry (attempt 1, its own key) is made.
    env.emulator.faults.clearPayment(domain, platformContract(domain, id!).customerId)
    const started = await handlers.retry(job!.data, expected)
    expect(started).toMatchObject({ kind: 'created' })
    // A job fired twice, or the daily run at the same hour: the retry is taken already.
    expect(await handlers.retry(job!.data, expected)).toBeNull()
    expect(await env.run(domain, expected, { wait: false })).toMatchObject({ attempted: 0 })
    await eventually(async () => {
      expect((await cycleRows(domain))[0]).toMatchObject({ status: 'succeeded', attempt_no: 1 })
    })
    expect(engineAttempts(domain, id!).map((a) => a.idempotencyKey)).toEqual([
      `billing:${id}:2026-11-22:0`,
      `billing:${id}:2026-11-22:1`,
    ])
    // Too early: a retry job started before its time does nothing.
    expect(await handlers.retry({ ...job!.data, attemptNo: 1 }, new Date('2026-11-22T00:00:00Z'))).toBeNull()
  })
})

describe('the outcome poll', () => {
  it('applies an outcome whose webhook never arrived', async () => {
    const domain = shops.poll
    const shop = await env.shop(domain)
    const due = await arrange(domain, new Date('2026-11-24T01:00:00Z'), 3)
    env.emulator.faults.set({ drop: 1 })
    const summary = await env.run(domain, new Date('2026-11-25T01:00:00Z'), { wait: false })
    expect(summary).toMatchObject({ attempted: 3, succeeded: 0 })
    // Every billing webhook of these attempts is dropped; the poll jobs (started at once here,
    // a minute later in the app) read the attempts and apply them.
    await eventually(async () => {
      expect((await cycleRows(domain)).map((r) => r.status)).toEqual(Array(3).fill('succeeded'))
    })
    const delivered = env.emulator.webhooks.deliveries.filter(
      (d) =>
        d.shop === domain && d.topic.startsWith('subscription_billing_attempts/') && d.status === 'delivered',
    )
    expect(delivered).toEqual([])
    for (const id of due) {
      expect((await eventTypes(domain, id)).filter((t) => t === 'billed')).toHaveLength(1)
      expect(platformContract(domain, id).nextBillingDate).toBeGreaterThan(
        new Date('2026-11-25T01:00:00Z').getTime(),
      )
    }
    expect((await jobsOf(BILLING_QUEUES.poll, shop.id)).length).toBeGreaterThanOrEqual(3)
  })
})

describe('create order now', () => {
  it('bills the current cycle through the engine: the schedule moves on and the run does not bill it again', async () => {
    const domain = shops.now
    const dueAt = new Date('2026-12-10T01:00:00Z')
    const [id] = await arrange(domain, dueAt, 1)
    const c = platformContract(domain, id!)
    const res = await env.app.inject({
      method: 'POST',
      url: `/app-admin/create-order-now?shop=${domain}&secret=${SECRET}`,
      payload: { contractId: String(id), revision: String(c.revisionId) },
    })
    expect(res.statusCode).toBe(200)
    const [row] = await cycleRows(domain)
    expect(row).toMatchObject({
      origin: 'order_now',
      contract_id: String(id),
      idempotency_key: `order-now-${id}-${c.revisionId}`,
    })
    await eventually(async () => {
      expect((await cycleRows(domain))[0]!.status).toBe('succeeded')
    })
    const next = platformContract(domain, id!).nextBillingDate!
    expect(next).toBeGreaterThan(dueAt.getTime())
    const types = await eventTypes(domain, id!)
    expect(types.filter((t) => t === 'billed')).toHaveLength(1)
    expect(types).toContain('order_now_requested')
    expect(types).not.toContain('billing_succeeded')

    // The day the cycle was due: it is billed already (and no longer due).
    const run = await env.run(domain, dueAt)
    expect(run).toMatchObject({ due: 0, attempted: 0 })
    expect(engineAttempts(domain, id!)).toHaveLength(1)

    // A second click after it succeeded bills the next cycle (a new key and row), once.
    const again = await env.app.inject({
      method: 'POST',
      url: `/app-admin/create-order-now?shop=${domain}&secret=${SECRET}`,
      payload: { contractId: String(id) },
    })
    expect(again.statusCode).toBe(200)
    expect(again.json().billingAttemptId).not.toBe(res.json().billingAttemptId)
    await eventually(async () => {
      expect((await cycleRows(domain)).map((r) => r.status)).toEqual(['succeeded', 'succeeded'])
    })
    expect(platformContract(domain, id!).nextBillingDate).toBeGreaterThan(next)
  })
})
