import { type BillingSettings, DEFAULT_BILLING_SETTINGS, ZBillingRunSummary } from '@teiki/contract'
import {
  addCalendarDays,
  DEFAULT_DELIVERY_SETTINGS,
  formatDateJa,
  nextBillingDate,
  toZonedDate,
} from '@teiki/domain'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { validateAgainstRealSchema } from '../../../packages/shopify-emulator/test/support/conformance.ts'
import { FAILURE_MAIL_SUBJECT, ORDER_MAIL_SUBJECT } from '../src/billing/engine.ts'
import { BILLING_ATTEMPTS_BY_ID, SUBSCRIPTION_CONTRACT_EXPIRE } from '../src/billing/platform.ts'
import { BillingRunAborted } from '../src/billing/run.ts'
import { putBillingSettings } from '../src/billing/settings.ts'
import { saveDeliverySettings } from '../src/features/delivery/repo.ts'
import type { PacedAdminClient } from '../src/platform/admin-client.ts'
import {
  attemptsOf,
  type BillingEnv,
  chargeableContracts,
  DUE,
  FAR,
  setNextBillingDates,
  startBillingEnv,
  T0,
  useBillingEnv,
} from './support/billing.ts'
import { testDomain, testDomains } from './support/fixtures.ts'

const shops = testDomains('bill', [
  'run',
  'repeat',
  'race',
  'crash',
  'abort',
  'cancel',
  'pause',
  'skip',
  'stock',
  'revive',
  'expire',
  'reprice',
  'closed',
])
const TZ = 'Asia/Tokyo'
const days = (n: number) => n * 86_400_000
const at = (base: Date, ms: number) => new Date(base.getTime() + ms)

const env = useBillingEnv({
  shops: Object.values(shops).map((domain) => ({ domain, contracts: 40 })),
})
beforeEach(() => env.emulator.faults.reset())

const platformShop = (domain: string) => env.emulator.store.shop(domain)!
const platformContract = (domain: string, id: number) =>
  platformShop(domain).contracts.find((c) => c.id === id)!

/**
 * Makes `count` chargeable ACTIVE contracts due at the given instants (cycled) and moves every
 * other ACTIVE contract of the shop far out, so a run at T0 sees exactly these.
 */
async function arrange(domain: string, dueAt: Date[], opts: { older?: number } = {}) {
  const older = opts.older ?? 0
  const active = env.chargeable(domain, dueAt.length + older).map((id) => ({ id }))
  const dates = new Map<number, Date>()
  for (const c of platformShop(domain).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  const due = active.slice(0, dueAt.length).map((c, i) => {
    dates.set(c.id, dueAt[i]!)
    return c.id
  })
  const skipped = active.slice(dueAt.length, dueAt.length + older).map((c) => {
    dates.set(c.id, new Date('2026-11-20T01:00:00Z'))
    return c.id
  })
  await env.setNextBillingDates(domain, dates)
  return { due, skipped }
}

async function cycles(domain: string) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{
    id: string
    contract_id: string
    cycle_date: string
    status: string
    attempt_no: number
    attempt_id: string | null
    idempotency_key: string
    next_retry_at: Date | null
    final_action: string | null
    failure_kind: string | null
  }>(
    `select id::text, contract_id::text, cycle_date::text, status, attempt_no, attempt_id::text, idempotency_key,
       next_retry_at, final_action, failure_kind
     from billing_cycles where shop_id = $1 order by contract_id, cycle_date`,
    [shop.id],
  )
  return rows
}

async function events(domain: string, contractId: number, type?: string) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ type: string; source: string; payload: Record<string, unknown> }>(
    `select type, source, payload from contract_events
     where shop_id = $1 and contract_id = $2 and ($3::text is null or type = $3) order by id`,
    [shop.id, contractId, type ?? null],
  )
  return rows
}

async function mirrorContract(domain: string, contractId: number) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{
    status: string
    next_billing_date: Date
    last_payment_status: string
  }>(
    'select status, next_billing_date, last_payment_status from subscription_contracts where shop_id = $1 and id = $2',
    [shop.id, contractId],
  )
  return rows[0]!
}

const engineAttempts = (domain: string, id: number) =>
  env.attempts(domain, id).filter((a) => a.idempotencyKey?.startsWith('billing:'))

/** What the policy says follows a charge due at `dueAt` (the domain's schedule is the oracle). */
function expectedNext(domain: string, id: number, dueAt: Date): Date {
  const p = platformContract(domain, id).billingPolicy
  return nextBillingDate(
    dueAt,
    {
      interval: p.interval,
      intervalCount: p.intervalCount,
      anchors: p.anchors.map((a) => ({
        type: a.type,
        day: a.day,
        month: a.month ?? null,
        cutoffDay: a.cutoffDay ?? null,
      })),
    },
    TZ,
  )
}

describe('the billing documents', () => {
  it.each([
    ['subscriptionContractExpire', SUBSCRIPTION_CONTRACT_EXPIRE],
    ['nodes(ids:) of billing attempts', BILLING_ATTEMPTS_BY_ID],
  ])('%s validates against the real 2025-04 Admin schema', (_name, document) => {
    expect(validateAgainstRealSchema(document)).toEqual([])
  })
})

describe('a billing run', () => {
  it('charges each due contract once, advances its schedule, records order, history and mail', async () => {
    const domain = shops.run
    const dueAt = [new Date('2026-11-24T01:00:00Z'), new Date('2026-11-25T00:30:00Z')]
    const { due, skipped } = await arrange(
      domain,
      Array.from({ length: 10 }, (_, i) => dueAt[i % 2]!),
      {
        older: 2,
      },
    )

    const summary = await env.run(domain, T0)
    expect(ZBillingRunSummary.parse(summary)).toEqual({
      shop: domain,
      now: T0.toISOString(),
      due: 10,
      attempted: 10,
      succeeded: 10,
      failed: 0,
      skipped: 2,
      alreadyBilled: 0,
    })

    const shop = await env.shop(domain)
    for (const [i, id] of due.entries()) {
      const was = dueAt[i % 2]!
      const attempts = engineAttempts(domain, id)
      expect(attempts.map((a) => a.idempotencyKey)).toEqual([`billing:${id}:${toZonedDate(was, TZ)}:0`])
      const next = expectedNext(domain, id, was)
      expect(next.getTime()).toBeGreaterThan(T0.getTime())
      expect(platformContract(domain, id).nextBillingDate).toBe(next.getTime())
      expect((await mirrorContract(domain, id)).next_billing_date.toISOString()).toBe(next.toISOString())

      const orderId = String(attempts[0]!.orderId)
      const order = await env.pool.query<{ contract_id: string; total_amount: string }>(
        'select contract_id::text, total_amount::text from orders where shop_id = $1 and id = $2',
        [shop.id, orderId],
      )
      expect(order.rows[0]?.contract_id).toBe(String(id))
      const billed = await events(domain, id, 'billed')
      expect(billed).toHaveLength(1)
      const platformOrder = platformShop(domain).orders.find((o) => String(o.id) === orderId)!
      expect(billed[0]).toMatchObject({
        source: 'billing',
        payload: {
          currencyCode: 'JPY',
          orderId,
          attemptId: String(attempts[0]!.id),
          cycleDate: toZonedDate(was, TZ),
        },
      })
      expect(Number(billed[0]!.payload.amount)).toBe(platformOrder.totalPriceSet)
      const count = await env.pool.query<{ n: number }>(
        'select count(*)::int as n from orders where shop_id = $1 and contract_id = $2 and cancelled_at is null',
        [shop.id, id],
      )
      expect(billed[0]!.payload.cycle).toBe(count.rows[0]!.n)
      // The engine's outcome is the contract's history entry; the webhook-style one is not added.
      expect(await events(domain, id, 'billing_succeeded')).toEqual([])
    }
    for (const id of skipped) expect(engineAttempts(domain, id)).toEqual([])

    const mails = await env.pool.query<{ to_address: string; body: string }>(
      'select to_address, body from mail_outbox where shop_id = $1 and subject = $2',
      [shop.id, ORDER_MAIL_SUBJECT],
    )
    const emails = due.map((id) => {
      const c = platformContract(domain, id)
      return platformShop(domain).customers.find((cu) => cu.id === c.customerId)!.email
    })
    expect(mails.rows.map((m) => m.to_address).sort()).toEqual(emails.filter(Boolean).sort())
    expect(mails.rows[0]!.body).toContain('定期便のご注文を承りました')

    const runs = await env.pool.query(
      'select due, attempted, succeeded, failed, skipped, already_billed, finished_at from billing_runs where shop_id = $1',
      [shop.id],
    )
    expect(runs.rows).toEqual([
      expect.objectContaining({
        due: 10,
        attempted: 10,
        succeeded: 10,
        failed: 0,
        skipped: 2,
        already_billed: 0,
      }),
    ])

    // The same run again: the schedule moved on, nothing is due, nothing is charged.
    const again = await env.run(domain, T0)
    expect(again).toMatchObject({ due: 0, attempted: 0, succeeded: 0, skipped: 2 })
    for (const id of due) expect(engineAttempts(domain, id)).toHaveLength(1)
  })

  it('repeated before the outcomes are in, charges nothing more (alreadyBilled = n)', async () => {
    const domain = shops.repeat
    const { due } = await arrange(
      domain,
      Array.from({ length: 6 }, () => new Date('2026-11-25T00:00:00Z')),
    )
    const first = await env.run(domain, T0, { wait: false })
    expect(first).toMatchObject({ due: 6, attempted: 6, succeeded: 0, failed: 0, alreadyBilled: 0 })
    const second = await env.run(domain, T0, { wait: false })
    expect(second).toMatchObject({ due: 6, attempted: 0, alreadyBilled: 6 })
    for (const id of due) expect(engineAttempts(domain, id)).toHaveLength(1)

    // The outcomes, polled (no webhooks here): each cycle settles once.
    const shop = await env.shop(domain)
    const rows = await cycles(domain)
    const outcomes = await env.app.billingEngine.awaitOutcomes(
      shop,
      rows.map((r) => r.id),
      { now: T0, intervalMs: 10 },
    )
    expect([...outcomes.values()]).toEqual(Array(6).fill('succeeded'))
    for (const id of due) expect(await events(domain, id, 'billed')).toHaveLength(1)
    // An outcome applied again (a late webhook) changes nothing.
    const attempt = engineAttempts(domain, due[0]!)[0]!
    const [platformAttempt] = await import('../src/billing/platform.ts').then((m) =>
      m.fetchBillingAttempts(env.clients.clientFor(shop), [
        `gid://shopify/SubscriptionBillingAttempt/${attempt.id}`,
      ]),
    )
    expect(await env.app.billingEngine.onAttemptOutcome(shop, platformAttempt!, { now: T0 })).toBe(
      'succeeded',
    )
    expect(await events(domain, due[0]!, 'billed')).toHaveLength(1)
  })

  it('several workers running the same run at once charge each contract once', async () => {
    const domain = shops.race
    const { due } = await arrange(
      domain,
      Array.from({ length: 8 }, () => new Date('2026-11-24T05:00:00Z')),
    )
    const results = await Promise.all([env.run(domain, T0), env.run(domain, T0), env.run(domain, T0)])
    for (const r of results) expect(r.attempted + r.alreadyBilled).toBe(8)
    // A worker that finds a cycle row without its attempt id re-sends the create with the same
    // key (it cannot tell a crashed worker from a slow one): the platform answers the same attempt.
    expect(results.reduce((n, r) => n + r.attempted, 0)).toBeGreaterThanOrEqual(8)
    const shop = await env.shop(domain)
    const counted = await env.pool.query<{ succeeded: number }>(
      'select coalesce(sum(succeeded), 0)::int as succeeded from billing_runs where shop_id = $1',
      [shop.id],
    )
    expect(counted.rows[0]!.succeeded).toBe(8)
    for (const id of due) {
      expect(engineAttempts(domain, id)).toHaveLength(1)
      expect(await events(domain, id, 'billed')).toHaveLength(1)
    }
  })
})

describe('a worker killed mid-run', () => {
  it('charges each contract exactly once after the restart (crash between create and store)', async () => {
    const domain = shops.crash
    const { due } = await arrange(
      domain,
      Array.from({ length: 10 }, () => new Date('2026-11-24T01:00:00Z')),
    )
    const crash = new Error('worker killed')
    await expect(
      env.run(domain, T0, {
        concurrency: 3,
        hooks: {
          afterAttemptCreated: ({ n }) => {
            if (n === 4) throw crash
          },
        },
      }),
    ).rejects.toBe(crash)
    const afterCrash = await cycles(domain)
    // The platform made the 4th attempt but the row never learned its id.
    expect(afterCrash.some((r) => r.status === 'attempting' && r.attempt_id === null)).toBe(true)
    expect(afterCrash.length).toBeLessThan(10)
    const platformAttempts = due.reduce((n, id) => n + engineAttempts(domain, id).length, 0)
    expect(platformAttempts).toBeGreaterThanOrEqual(4)

    const restarted = await env.run(domain, T0)
    expect(restarted.attempted + restarted.alreadyBilled).toBe(10)
    for (const id of due) {
      expect(engineAttempts(domain, id)).toHaveLength(1)
      expect(await events(domain, id, 'billed')).toHaveLength(1)
    }
    // The restarted (synchronous) run also settled what the killed one had left open.
    expect((await cycles(domain)).map((r) => r.status)).toEqual(Array(10).fill('succeeded'))
    const shop = await env.shop(domain)
    const runs = await env.pool.query<{ error: string | null }>(
      'select error from billing_runs where shop_id = $1 order by id',
      [shop.id],
    )
    expect(runs.rows.map((r) => r.error)).toEqual(['worker killed', null])
  })

  it('an aborted run stops taking contracts and the next run charges the rest once', async () => {
    const domain = shops.abort
    const { due } = await arrange(
      domain,
      Array.from({ length: 8 }, () => new Date('2026-11-24T01:00:00Z')),
    )
    const stop = new AbortController()
    await expect(
      env.run(domain, T0, {
        concurrency: 1,
        signal: stop.signal,
        hooks: {
          afterAttemptCreated: ({ n }) => {
            if (n === 3) stop.abort()
          },
        },
      }),
    ).rejects.toBeInstanceOf(BillingRunAborted)
    expect(await cycles(domain)).toHaveLength(3)
    const next = await env.run(domain, T0)
    expect(next).toMatchObject({ due: 8, attempted: 5, alreadyBilled: 3, succeeded: 5 })
    for (const id of due) expect(engineAttempts(domain, id)).toHaveLength(1)
  })
})

describe('dunning', () => {
  const settings: BillingSettings = {
    billingHour: 10,
    lookbackDays: 2,
    retryAttempts: 2,
    retryIntervalDays: 3,
    finalAction: 'CANCEL',
    inventoryRetryAttempts: 1,
    inventoryRetryIntervalDays: 1,
    inventoryFinalAction: 'SKIP',
    deliveryPrepDays: 2,
  }

  /** The failure mails the customer of contract `id` got, oldest first. */
  async function failureMails(domain: string, id: number) {
    const shop = await env.shop(domain)
    const c = platformContract(domain, id)
    const email = platformShop(domain).customers.find((cu) => cu.id === c.customerId)!.email
    const { rows } = await env.pool.query<{ to_address: string; body: string }>(
      'select to_address, body from mail_outbox where shop_id = $1 and subject = $2 and to_address = $3 order by id',
      [shop.id, FAILURE_MAIL_SUBJECT, email],
    )
    return rows.map((r) => r.body)
  }

  async function failing(domain: string, overrides: Partial<BillingSettings> = {}) {
    const { due } = await arrange(domain, [DUE])
    const id = due[0]!
    env.emulator.faults.failPayment(domain, platformContract(domain, id).customerId, 'INSUFFICIENT_FUNDS')
    await putBillingSettings(env.pool, (await env.shop(domain)).id, { ...settings, ...overrides })
    return id
  }

  it('retries a failing card on the schedule, then cancels after the last retry', async () => {
    const domain = shops.cancel
    const id = await failing(domain)

    expect(await env.run(domain, T0)).toMatchObject({ due: 1, attempted: 1, failed: 1, succeeded: 0 })
    const [first] = await cycles(domain)
    const retryAt = new Date('2026-11-28T01:00:00Z') // 3 shop-local days later, at the billing hour
    expect(first).toMatchObject({ status: 'retry_scheduled', attempt_no: 0, failure_kind: 'payment' })
    expect(first!.next_retry_at?.toISOString()).toBe(retryAt.toISOString())
    expect((await events(domain, id, 'billing_failed')).map((e) => e.payload)).toEqual([
      expect.objectContaining({
        code: 'INSUFFICIENT_FUNDS',
        attempt: 1,
        willRetryAt: retryAt.toISOString(),
        message: 'Your card has insufficient funds.',
      }),
    ])
    expect((await mirrorContract(domain, id)).last_payment_status).toBe('FAILED')
    // The customer hears of it once, with the retry's date and what to check.
    const told = await failureMails(domain, id)
    expect(told).toHaveLength(1)
    expect(told[0]).toContain('2026年11月24日の定期便は、ご登録のお支払い方法で決済を完了できなかった')
    expect(told[0]).toContain('2026年11月28日にあらためてご注文をお受けします。')
    expect(told[0]).toContain('お支払い方法をご確認ください')
    // With the platform's own mail carrying the link to update the card, once per cycle.
    expect(told[0]).toContain('お支払い方法を変更するためのご案内を、別のメールでお送りしました。')
    const linkMails = () => platformShop(domain).extra?.sentEmails ?? []
    expect(linkMails()).toEqual([
      expect.objectContaining({
        paymentMethodId: platformContract(domain, id).paymentMethodId,
        customerId: platformContract(domain, id).customerId,
      }),
    ])
    expect((await events(domain, id, 'payment_update_email_sent')).map((e) => e.payload)).toEqual([
      expect.objectContaining({ cycleDate: '2026-11-24' }),
    ])

    // Not yet due: nothing happens two days later.
    expect(await env.run(domain, at(T0, days(2)))).toMatchObject({ due: 0, attempted: 0 })
    expect(await env.run(domain, retryAt)).toMatchObject({ due: 1, attempted: 1, failed: 1 })
    expect((await cycles(domain))[0]).toMatchObject({ status: 'retry_scheduled', attempt_no: 1 })
    const lastRetry = new Date('2026-12-01T01:00:00Z')
    expect(await env.run(domain, lastRetry)).toMatchObject({ due: 1, attempted: 1, failed: 1 })

    expect(engineAttempts(domain, id).map((a) => a.idempotencyKey)).toEqual([
      `billing:${id}:2026-11-24:0`,
      `billing:${id}:2026-11-24:1`,
      `billing:${id}:2026-11-24:2`,
    ])
    expect((await cycles(domain))[0]).toMatchObject({ status: 'failed', final_action: 'CANCEL' })
    expect(platformContract(domain, id).status).toBe('CANCELLED')
    expect((await mirrorContract(domain, id)).status).toBe('CANCELLED')
    expect((await events(domain, id, 'status_changed')).map((e) => e.payload)).toEqual([
      expect.objectContaining({ from: 'ACTIVE', to: 'CANCELLED', source: 'dunning' }),
    ])
    const failures = await events(domain, id, 'billing_failed')
    expect(failures.map((e) => [e.payload.attempt, e.payload.willRetryAt !== null])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ])
    // One mail per failed attempt; the last one says the subscription was cancelled.
    const mails = await failureMails(domain, id)
    expect(mails).toHaveLength(3)
    expect(mails[1]).toContain('2026年12月1日にあらためてご注文をお受けします。')
    expect(mails[1]).not.toContain('別のメールでお送りしました')
    expect(linkMails()).toHaveLength(1)
    expect(mails[2]).toContain('再度のお手続きでもご注文を承れなかったため、定期便を解約いたしました。')
    expect(mails[2]).not.toContain('あらためて')
    // Over: later runs leave it alone.
    expect(await env.run(domain, at(lastRetry, days(7)))).toMatchObject({ attempted: 0 })
    expect(engineAttempts(domain, id)).toHaveLength(3)
    expect(await failureMails(domain, id)).toHaveLength(3)
  })

  it('pauses the contract when that is the final action (no retries configured)', async () => {
    const domain = shops.pause
    const id = await failing(domain, { retryAttempts: 0, finalAction: 'PAUSE' })
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, failed: 1 })
    expect(platformContract(domain, id).status).toBe('PAUSED')
    expect((await mirrorContract(domain, id)).status).toBe('PAUSED')
    expect((await cycles(domain))[0]).toMatchObject({ status: 'failed', final_action: 'PAUSE' })
    expect((await events(domain, id, 'status_changed')).map((e) => e.payload)).toEqual([
      expect.objectContaining({ to: 'PAUSED', source: 'dunning' }),
    ])
    const mails = await failureMails(domain, id)
    expect(mails).toHaveLength(1)
    // No retries were configured, so the mail does not speak of any.
    expect(mails[0]).toContain('このため、定期便を一時停止いたしました。')
    expect(mails[0]).not.toContain('再度のお手続きでも')
  })

  it('skips the cycle after the last retry: next date advanced, nothing charged', async () => {
    const domain = shops.skip
    const id = await failing(domain, { retryAttempts: 1, finalAction: 'SKIP' })
    const ordersBefore = platformContract(domain, id).orderIds.length
    await env.run(domain, T0)
    expect(await env.run(domain, new Date('2026-11-28T01:00:00Z'))).toMatchObject({ attempted: 1, failed: 1 })
    const next = expectedNext(domain, id, DUE)
    expect(platformContract(domain, id).nextBillingDate).toBe(next.getTime())
    expect(platformContract(domain, id).status).toBe('ACTIVE')
    expect(platformContract(domain, id).orderIds).toHaveLength(ordersBefore)
    expect((await mirrorContract(domain, id)).next_billing_date.toISOString()).toBe(next.toISOString())
    expect((await cycles(domain))[0]).toMatchObject({ status: 'failed', final_action: 'SKIP' })
    expect((await events(domain, id, 'next_billing_date_changed')).map((e) => e.payload)).toEqual([
      { from: DUE.toISOString(), to: next.toISOString(), source: 'dunning' },
    ])
    expect(engineAttempts(domain, id)).toHaveLength(2)
    const mails = await failureMails(domain, id)
    expect(mails).toHaveLength(2)
    expect(mails[1]).toContain('今回のお届けはお休みとなります。')
    expect(mails[1]).toContain(`次回ご請求日: ${formatDateJa(next, TZ)}`)
  })

  it('follows the inventory schedule for out-of-stock failures', async () => {
    const domain = shops.stock
    const { due } = await arrange(domain, [DUE])
    const id = due[0]!
    env.emulator.faults.outOfStock(domain, platformContract(domain, id).lines[0]!.variantId)
    await putBillingSettings(env.pool, (await env.shop(domain)).id, settings)

    expect(await env.run(domain, T0)).toMatchObject({ failed: 1 })
    const [row] = await cycles(domain)
    // One day (the inventory interval), not the three of a payment failure.
    expect(row).toMatchObject({ status: 'retry_scheduled', failure_kind: 'inventory' })
    expect(row!.next_retry_at?.toISOString()).toBe('2026-11-26T01:00:00.000Z')
    expect(await env.run(domain, new Date('2026-11-26T01:00:00Z'))).toMatchObject({ attempted: 1, failed: 1 })
    expect((await cycles(domain))[0]).toMatchObject({ status: 'failed', final_action: 'SKIP' })
    expect(platformContract(domain, id).status).toBe('ACTIVE')
    expect(platformContract(domain, id).nextBillingDate).toBe(expectedNext(domain, id, DUE).getTime())
    // Stock is not the customer's to fix: the mail says so and asks nothing of their card.
    const mails = await failureMails(domain, id)
    expect(mails).toHaveLength(2)
    expect(mails[0]).toContain('商品の在庫が不足しているため')
    expect(mails[0]).not.toContain('お支払い方法をご確認ください')
    expect(platformShop(domain).extra?.sentEmails ?? []).toEqual([])
  })

  it('a later success reactivates a FAILED contract and moves the schedule on', async () => {
    const domain = shops.revive
    const id = await failing(domain)
    await env.run(domain, T0)
    // The platform (or another app) marked the contract FAILED meanwhile.
    const c = platformContract(domain, id)
    c.status = 'FAILED'
    c.updatedAt = Date.now() + 1000
    env.emulator.faults.clearPayment(domain, c.customerId)

    const retryAt = new Date('2026-11-28T01:00:00Z')
    expect(await env.run(domain, retryAt)).toMatchObject({ attempted: 1, succeeded: 1, failed: 0 })
    expect(platformContract(domain, id).status).toBe('ACTIVE')
    expect(platformContract(domain, id).nextBillingDate).toBe(expectedNext(domain, id, DUE).getTime())
    expect(await mirrorContract(domain, id)).toMatchObject({
      status: 'ACTIVE',
      last_payment_status: 'SUCCEEDED',
    })
    expect((await cycles(domain))[0]).toMatchObject({ status: 'succeeded', attempt_no: 1 })
    expect(await events(domain, id, 'billed')).toHaveLength(1)
  })
})

describe('after a success', () => {
  it('expires the contract at maxCycles and moves the delivery date by the preparation days', async () => {
    const domain = shops.expire
    const { due } = await arrange(domain, [
      new Date('2026-11-24T01:00:00Z'),
      new Date('2026-11-24T01:00:00Z'),
    ])
    const [last, ongoing] = due as [number, number]
    const shop = await env.shop(domain)
    await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 3 })
    const count = async (id: number) =>
      (
        await env.pool.query<{ n: number }>(
          'select count(*)::int as n from orders where shop_id = $1 and contract_id = $2 and cancelled_at is null',
          [shop.id, id],
        )
      ).rows[0]!.n
    // This charge is the contract's last cycle; the other one carries a delivery date.
    platformContract(domain, last).billingPolicy.maxCycles = (await count(last)) + 1
    platformContract(domain, ongoing).customAttributes = [{ key: 'お届け予定日', value: '2026-11-26' }]
    await setNextBillingDates(
      env,
      domain,
      new Map([
        [last, new Date('2026-11-24T01:00:00Z')],
        [ongoing, new Date('2026-11-24T01:00:00Z')],
      ]),
    )

    expect(await env.run(domain, T0)).toMatchObject({ attempted: 2, succeeded: 2 })
    expect(platformContract(domain, last).status).toBe('EXPIRED')
    expect((await mirrorContract(domain, last)).status).toBe('EXPIRED')
    expect((await events(domain, last, 'billed'))[0]!.payload).toMatchObject({
      expired: true,
      nextBillingDate: null,
    })

    const next = expectedNext(domain, ongoing, new Date('2026-11-24T01:00:00Z'))
    const delivery = toZonedDate(new Date(next.getTime() + days(3)), TZ)
    expect(platformContract(domain, ongoing).customAttributes).toContainEqual({
      key: 'お届け予定日',
      value: delivery,
    })
    expect((await events(domain, ongoing, 'billed'))[0]!.payload).toMatchObject({
      nextDeliveryDate: delivery,
    })
    const mirrored = await env.pool.query<{ custom_attributes: Array<{ key: string; value: string }> }>(
      'select custom_attributes from subscription_contracts where shop_id = $1 and id = $2',
      [shop.id, ongoing],
    )
    expect(mirrored.rows[0]!.custom_attributes).toContainEqual({ key: 'お届け予定日', value: delivery })
  })
})

describe('配送設定 after a success', () => {
  it('moves the next お届け予定日 past the shop’s days without delivery', async () => {
    const domain = shops.closed
    const dueAt = new Date('2026-11-24T01:00:00Z')
    const { due } = await arrange(domain, [dueAt])
    const [id] = due as [number]
    const shop = await env.shop(domain)
    await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 3 })
    platformContract(domain, id).customAttributes = [{ key: 'お届け予定日', value: '2026-11-26' }]
    await setNextBillingDates(env, domain, new Map([[id, dueAt]]))
    // The day the preparation days land on, and the one after, are closed.
    const landing = toZonedDate(new Date(expectedNext(domain, id, dueAt).getTime() + days(3)), TZ)
    await saveDeliverySettings(env.pool, shop.id, {
      ...DEFAULT_DELIVERY_SETTINGS,
      closedDates: [landing, addCalendarDays(landing, 1)],
    })

    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const moved = addCalendarDays(landing, 2)
    expect(platformContract(domain, id).customAttributes).toContainEqual({
      key: 'お届け予定日',
      value: moved,
    })
    expect((await events(domain, id, 'billed'))[0]!.payload).toMatchObject({ nextDeliveryDate: moved })
  })
})

describe('cycle prices', () => {
  it('moves each line onto its pricing policy for the next cycle, once, and never over a price set by hand', async () => {
    const domain = shops.reprice
    const dueAt = new Date('2026-11-24T01:00:00Z')
    const { due } = await arrange(domain, [dueAt, dueAt, dueAt, dueAt])
    const [stepping, manual, settled, stale] = due as [number, number, number, number]
    const shop = await env.shop(domain)
    const orders = async (id: number) =>
      (
        await env.pool.query<{ n: number }>(
          'select count(*)::int as n from orders where shop_id = $1 and contract_id = $2 and cancelled_at is null',
          [shop.id, id],
        )
      ).rows[0]!.n
    const charged = (id: number) => {
      const c = platformContract(domain, id)
      return c.lines.reduce((sum, l) => sum + l.currentPrice * l.quantity, 0) + c.deliveryPrice
    }
    const pct = (percentage: number, afterCycle: number) => ({
      __typename: 'SellingPlanRecurringPricingPolicy' as const,
      afterCycle,
      adjustmentType: 'PERCENTAGE' as const,
      adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue' as const, percentage },
    })
    // ¥2,000 a unit: 10% off so far, 20% off from the cycle after the one billed now (or 10%
    // off for ever).
    const setUp = async (id: number, currentPrice: number, steps = true) => {
      const billedNow = (await orders(id)) + 1
      const cycleDiscounts = steps ? [pct(10, 0), pct(20, billedNow)] : [pct(10, 0)]
      const c = platformContract(domain, id)
      c.lines = c.lines.map((l, i) =>
        i === 0
          ? { ...l, currentPrice, pricingPolicy: { basePrice: 2000, cycleDiscounts } }
          : { ...l, pricingPolicy: null },
      )
      // A change on the platform moves the contract's updatedAt (the mirror did not hear of it).
      c.updatedAt += 1000
      c.revisionId += 1
      return c.lines[0]!
    }
    const steppingLine = await setUp(stepping, 1800)
    // Came from checkout at the base price, though its policy takes 20% off every cycle.
    const staleContract = platformContract(domain, stale)
    staleContract.lines = staleContract.lines.map((l, i) =>
      i === 0
        ? { ...l, currentPrice: 2000, pricingPolicy: { basePrice: 2000, cycleDiscounts: [pct(20, 0)] } }
        : { ...l, pricingPolicy: null },
    )
    staleContract.updatedAt += 1000
    staleContract.revisionId += 1
    const staleLine = staleContract.lines[0]!
    const staleExpected = charged(stale) - 400 * staleLine.quantity
    const pricingReads = () =>
      env.emulator.callLog.filter((c) => c.shop === domain && c.operationName === 'SubscriptionLinePricing')
        .length
    const readsBefore = pricingReads()
    const manualLine = await setUp(manual, 1800)
    const settledLine = await setUp(settled, 1800, false)
    await env.pool.query(
      'update subscription_contracts set price_manually_changed_at = now() where shop_id = $1 and id = $2',
      [shop.id, manual],
    )
    const expectedTotal = charged(stepping)

    expect(await env.run(domain, T0)).toMatchObject({ attempted: 4, succeeded: 4 })
    // The policies changed on the platform since the mirror read them (updatedAt moved): one read
    // per charge (before it, by the claimer; the next cycle's prices are worked out from it),
    // except the hand-priced contract, which is never repriced.
    expect(pricingReads() - readsBefore).toBe(3)
    const kept = await env.pool.query<{ contract_id: string; line_pricing: unknown }>(
      'select contract_id::text, line_pricing from billing_cycles where shop_id = $1 and contract_id = any($2::bigint[])',
      [shop.id, [stepping, stale]],
    )
    expect(kept.rows.find((r) => r.contract_id === String(stale))!.line_pricing).toContainEqual({
      id: `gid://shopify/SubscriptionLine/${staleLine.id}`,
      currentPrice: '1600',
      pricingPolicy: {
        basePrice: '2000.0',
        cycleDiscounts: [{ adjustmentType: 'PERCENTAGE', adjustmentValue: '20', afterCycle: 0 }],
      },
    })

    // The charge just made was at the old price; the next one carries the policy's.
    const billed = (await events(domain, stepping, 'billed'))[0]!.payload
    expect(Number(billed.amount)).toBe(expectedTotal)
    const lineOf = (id: number, lineId: number) =>
      platformContract(domain, id).lines.find((l) => l.id === lineId)!
    expect(lineOf(stepping, steppingLine.id).currentPrice).toBe(1600)
    expect(await events(domain, stepping, 'line_price_changed')).toMatchObject([
      {
        source: 'billing',
        payload: { lineId: String(steppingLine.id), from: '1800.0', to: '1600', source: 'pricing_policy' },
      },
    ])
    const mirrored = await env.pool.query<{ current_price: string }>(
      'select current_price::text from subscription_lines where shop_id = $1 and contract_id = $2 and id = $3',
      [shop.id, stepping, `gid://shopify/SubscriptionLine/${steppingLine.id}`],
    )
    expect(Number(mirrored.rows[0]!.current_price)).toBe(1600)

    // A price the merchant set by hand stays; a line already at the policy's price is not touched.
    expect(lineOf(manual, manualLine.id).currentPrice).toBe(1800)
    expect(await events(domain, manual, 'line_price_changed')).toEqual([])
    expect(lineOf(settled, settledLine.id).currentPrice).toBe(1800)
    expect(await events(domain, settled, 'line_price_changed')).toEqual([])

    // The app's first charge of a contract puts its lines on their policy before charging.
    expect(Number((await events(domain, stale, 'billed'))[0]!.payload.amount)).toBe(staleExpected)
    expect(lineOf(stale, staleLine.id).currentPrice).toBe(1600)
    expect(await events(domain, stale, 'line_price_changed')).toMatchObject([
      { source: 'billing', payload: { lineId: String(staleLine.id), from: '2000.0', to: '1600' } },
    ])

    // The next cycle: the price is right already, so nothing moves again.
    const next = platformContract(domain, stepping).nextBillingDate!
    const nextRun = new Date(next + 3_600_000)
    await setNextBillingDates(
      env,
      domain,
      new Map([
        [manual, FAR],
        [settled, FAR],
        [stale, FAR],
      ]),
    )
    expect(await env.run(domain, nextRun)).toMatchObject({ succeeded: 1 })
    expect(lineOf(stepping, steppingLine.id).currentPrice).toBe(1600)
    expect(await events(domain, stepping, 'line_price_changed')).toHaveLength(1)
    // Nothing changed on the platform but the app's own writes: the kept policies price it.
    expect(pricingReads() - readsBefore).toBe(3)
  })
})

describe('a throttled platform', () => {
  let throttled: BillingEnv
  const domain = testDomain('bill-throttle')
  beforeAll(async () => {
    throttled = await startBillingEnv({
      shops: [{ domain, contracts: 80 }],
      // Half a Basic plan's bucket (the sync's pages still fit), refilling at 400/s.
      throttle: { restoreRate: 400, bucketSize: 1000 },
    })
  }, 120_000)
  afterAll(() => throttled?.close())

  it('slows the run but fails no attempt', async () => {
    const platform = throttled.emulator.store.shop(domain)!
    const active = chargeableContracts(throttled.emulator, domain, 30).map((id) => ({ id }))
    const dates = new Map<number, Date>()
    for (const c of platform.contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
    const due = active.slice(0, 30).map((c) => c.id)
    for (const id of due) dates.set(id, new Date('2026-11-24T01:00:00Z'))
    await setNextBillingDates(throttled, domain, dates)
    const client = throttled.clients.clientFor(await throttled.shop(domain)) as PacedAdminClient
    const before = { ...client.stats }
    // Other processes of the app spend the same bucket: some answers come back THROTTLED anyway.
    throttled.emulator.faults.set({ throttleNext: 5 })

    const summary = await throttled.run(domain, T0)
    expect(summary).toMatchObject({ due: 30, attempted: 30, succeeded: 30, failed: 0 })
    for (const id of due) {
      expect(
        attemptsOf(throttled.emulator, domain, id).filter((a) => a.idempotencyKey?.startsWith('billing:')),
      ).toHaveLength(1)
    }
    expect(client.stats.throttled - before.throttled).toBeGreaterThanOrEqual(5)
    // More points than the bucket holds were spent: the client had to wait for it to refill.
    expect(client.stats.pointsSpent - before.pointsSpent).toBeGreaterThan(1000)
    expect(client.stats.pacedMs - before.pacedMs).toBeGreaterThan(0)
  })
})
