import { randomUUID } from 'node:crypto'
import { ZSubscriptionDetail, ZUpcomingChargesResponse } from '@teiki/contract'
import { formatDateTimeJa, nextBillingDate } from '@teiki/domain'
import { signWebhook } from '@teiki/shopify-emulator'
import { beforeEach, describe, expect, it } from 'vitest'
import { CHALLENGE_EXPIRED, challengeDeadline } from '../src/billing/challenge-rules.ts'
import { CHALLENGE_MAIL_SUBJECT, FAILURE_MAIL_SUBJECT, ORDER_MAIL_SUBJECT } from '../src/billing/engine.ts'
import { putBillingSettings } from '../src/billing/settings.ts'
import { toGid } from '../src/platform/gid.ts'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { STAMP, TEST_API_SECRET } from './support/fixtures.ts'

// 3-D Secure (issue 12 item 6, ADR 0011) through the app and the emulator: the webhook path and
// the poll path, one mail per challenge, no charge while the customer is awaited, a completed
// challenge settled once, an expired one through dunning, a late success, shops kept apart.

const shops = Object.fromEntries(
  ['hook', 'poll', 'fail', 'expire', 'final', 'late', 'lost', 'iso-a', 'iso-b'].map((k) => [
    k,
    `tds-${k}-${STAMP}.myshopify.com`,
  ]),
) as Record<string, string>
const TZ = 'Asia/Tokyo'
const days = (n: number) => n * 86_400_000
const at = (base: Date, ms: number) => new Date(base.getTime() + ms)

const env = useBillingEnv({
  shops: Object.values(shops).map((domain) => ({ domain, contracts: 30 })),
  webhooks: true,
})
beforeEach(() => env.emulator.faults.reset())

const platformShop = (domain: string) => env.emulator.store.shop(domain)!
const platformContract = (domain: string, id: number) =>
  platformShop(domain).contracts.find((c) => c.id === id)!

/** One chargeable contract due at T0 whose card's issuer asks for 3-D Secure; every other one far out. */
async function arrangeChallenged(domain: string): Promise<number> {
  const [id] = env.chargeable(domain, 1) as [number]
  const dates = new Map<number, Date>()
  for (const c of platformShop(domain).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  dates.set(id, at(T0, -60_000))
  await env.setNextBillingDates(domain, dates)
  env.emulator.faults.challengePayment(domain, toGid('Customer', platformContract(domain, id).customerId))
  return id
}

async function cycleOf(domain: string, contractId: number) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{
    id: string
    status: string
    attempt_no: number
    attempt_id: string | null
    error_code: string | null
    next_retry_at: Date | null
    final_action: string | null
    challenge_url: string | null
    challenged_at: Date | null
    challenge_expires_at: Date | null
  }>(
    `select id::text, status, attempt_no, attempt_id::text, error_code, next_retry_at, final_action,
       challenge_url, challenged_at, challenge_expires_at
     from billing_cycles where shop_id = $1 and contract_id = $2`,
    [shop.id, contractId],
  )
  expect(rows).toHaveLength(1)
  return rows[0]!
}

async function events(domain: string, contractId: number, type: string) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ payload: Record<string, unknown> }>(
    'select payload from contract_events where shop_id = $1 and contract_id = $2 and type = $3 order by id',
    [shop.id, contractId, type],
  )
  return rows.map((r) => r.payload)
}

async function mails(domain: string, contractId: number, subject: string) {
  const shop = await env.shop(domain)
  const c = platformContract(domain, contractId)
  const email = platformShop(domain).customers.find((x) => x.id === c.customerId)!.email!
  const { rows } = await env.pool.query<{ body: string; dedupe_key: string | null }>(
    `select body, dedupe_key from mail_outbox where shop_id = $1 and subject = $2 and to_address = $3 order by id`,
    [shop.id, subject, email],
  )
  return rows
}

const attempts = (domain: string, id: number) =>
  env.attempts(domain, id).filter((a) => a.idempotencyKey?.startsWith('billing:'))

/** A genuine delivery of the emulator, re-sent with fresh ids (a replay the platform may make). */
function redeliver(domain: string, topic: string, attemptId: number) {
  const d = env.emulator.webhooks.deliveries.find(
    (x) => x.shop === domain && x.topic === topic && JSON.parse(x.body).id === attemptId,
  )!
  return env.app.inject({
    method: 'POST',
    url: '/webhooks',
    payload: d.body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': domain,
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-event-id': randomUUID(),
      'x-shopify-hmac-sha256': signWebhook(d.body, TEST_API_SECRET),
    },
  })
}

function expectedNext(domain: string, id: number, dueAt: Date): Date {
  const p = platformContract(domain, id).billingPolicy
  const anchors = p.anchors.map((a) => ({ ...a, month: a.month ?? null, cutoffDay: a.cutoffDay ?? null }))
  return nextBillingDate(dueAt, { interval: p.interval, intervalCount: p.intervalCount, anchors }, TZ)
}

describe('the webhook path', () => {
  it('records the challenge, mails the link once, charges nothing more, then settles the success once', async () => {
    const domain = shops.hook!
    const id = await arrangeChallenged(domain)
    const summary = await env.run(domain, T0, { wait: false })
    expect(summary).toMatchObject({ due: 1, attempted: 1 })
    await env.emulator.idle()

    const [attempt] = attempts(domain, id)
    expect(attempt?.nextActionUrl).toMatch(/\/emulator\/3ds\//)
    const cycle = await cycleOf(domain, id)
    expect(cycle).toMatchObject({ status: 'challenged', challenge_url: attempt!.nextActionUrl })
    // Three days from when the app learnt of it (the webhook's wall clock), at the billing hour.
    expect(cycle.challenge_expires_at).toEqual(challengeDeadline(cycle.challenged_at!, 10, TZ))
    expect(await events(domain, id, 'billing_challenged')).toEqual([
      {
        attemptId: String(attempt!.id),
        attempt: 1,
        cycleDate: '2026-11-25',
        expiresAt: cycle.challenge_expires_at!.toISOString(),
      },
    ])
    const [mail, ...more] = await mails(domain, id, CHALLENGE_MAIL_SUBJECT)
    expect(more).toEqual([])
    expect(mail!.dedupe_key).toBe(`challenge:${attempt!.id}`)
    expect(mail!.body).toContain('カード会社による本人認証（3Dセキュア）が必要になりました')
    expect(mail!.body).toContain(attempt!.nextActionUrl!)
    expect(mail!.body).toContain(`${formatDateTimeJa(cycle.challenge_expires_at!, TZ)}までに`)

    // A replayed challenged delivery, a poll and the next day's run: no mail, no charge.
    expect(
      (await redeliver(domain, 'subscription_billing_attempts/challenged', attempt!.id)).statusCode,
    ).toBe(200)
    expect(await env.app.billingEngine!.pollCycle(await env.shop(domain), cycle.id)).toBe('challenged')
    const nextDay = await env.run(domain, at(T0, days(1)), { wait: false })
    expect(nextDay).toMatchObject({ due: 1, attempted: 0, alreadyBilled: 1 })
    expect(attempts(domain, id)).toHaveLength(1)
    expect(await mails(domain, id, CHALLENGE_MAIL_SUBJECT)).toHaveLength(1)
    expect(await events(domain, id, 'billing_challenged')).toHaveLength(1)

    // The customer authenticates: the success webhook settles the cycle like any success.
    expect(env.emulator.completeChallenge(domain, attempt!.id, 'success')).toBe(true)
    await env.emulator.idle()
    const settled = await cycleOf(domain, id)
    expect(settled.status).toBe('succeeded')
    const next = expectedNext(domain, id, at(T0, -60_000))
    expect(platformContract(domain, id).nextBillingDate).toBe(next.getTime())
    const orderId = String(attempts(domain, id)[0]!.orderId)
    const shop = await env.shop(domain)
    const order = await env.pool.query('select 1 from orders where shop_id = $1 and id = $2', [
      shop.id,
      orderId,
    ])
    expect(order.rowCount).toBe(1)
    expect(await redeliver(domain, 'subscription_billing_attempts/success', attempt!.id)).toMatchObject({
      statusCode: 200,
    })
    expect(await events(domain, id, 'billed')).toEqual([expect.objectContaining({ orderId })])
    expect(await mails(domain, id, ORDER_MAIL_SUBJECT)).toHaveLength(1)
  })

  it('a failed authentication goes to dunning as a payment failure (AUTHENTICATION_ERROR)', async () => {
    const domain = shops.fail!
    const id = await arrangeChallenged(domain)
    await env.run(domain, T0, { wait: false })
    await env.emulator.idle()
    const [attempt] = attempts(domain, id)
    expect((await cycleOf(domain, id)).status).toBe('challenged')
    env.emulator.completeChallenge(domain, attempt!.id, 'failure')
    await env.emulator.idle()
    const cycle = await cycleOf(domain, id)
    expect(cycle).toMatchObject({ status: 'retry_scheduled', error_code: 'AUTHENTICATION_ERROR' })
    expect(await events(domain, id, 'billing_failed')).toEqual([
      expect.objectContaining({ code: 'AUTHENTICATION_ERROR', kind: 'payment', attempt: 1 }),
    ])
    expect(await mails(domain, id, FAILURE_MAIL_SUBJECT)).toHaveLength(1)
  })
})

describe('the poll path (no webhook arrives)', () => {
  it('the poll job finds the challenge; the next run finds the completed one; each settled once', async () => {
    const domain = shops.poll!
    const id = await arrangeChallenged(domain)
    env.emulator.faults.set({ drop: 1 })
    const summary = await env.run(domain, T0, { wait: false })
    expect(summary).toMatchObject({ due: 1, attempted: 1, succeeded: 0, failed: 0 })
    await env.emulator.idle()
    const before = await cycleOf(domain, id)
    expect(before.status).toBe('attempting')
    // What the billing-poll job does (jobs/billing-jobs.ts): it ends, the customer is awaited.
    expect(await env.app.billingEngine!.pollCycle(await env.shop(domain), before.id, { now: T0 })).toBe(
      'challenged',
    )
    const cycle = await cycleOf(domain, id)
    expect(cycle).toMatchObject({
      status: 'challenged',
      challenge_url: attempts(domain, id)[0]!.nextActionUrl,
    })
    // The poll's clock: three days from T0's day, at the billing hour.
    expect(cycle.challenge_expires_at).toEqual(new Date('2026-11-28T01:00:00Z'))
    expect(await env.app.billingEngine!.pollCycle(await env.shop(domain), cycle.id, { now: T0 })).toBe(
      'challenged',
    )
    expect(await mails(domain, id, CHALLENGE_MAIL_SUBJECT)).toHaveLength(1)
    expect(await events(domain, id, 'billing_challenged')).toHaveLength(1)

    // Completed, and the success webhook is lost too: the next daily run reads it and settles.
    env.emulator.completeChallenge(domain, attempts(domain, id)[0]!.id, 'success')
    await env.emulator.idle()
    expect((await cycleOf(domain, id)).status).toBe('challenged')
    await env.run(domain, at(T0, days(1)))
    expect((await cycleOf(domain, id)).status).toBe('succeeded')
    await env.run(domain, at(T0, days(2)))
    expect(attempts(domain, id)).toHaveLength(1)
    expect(await events(domain, id, 'billed')).toHaveLength(1)
    expect(await mails(domain, id, ORDER_MAIL_SUBJECT)).toHaveLength(1)
  })
})

describe('no authentication by the deadline', () => {
  const DEADLINE = new Date('2026-11-28T01:00:00Z')

  it('expires into the payment dunning schedule with its own reason, then the retry charges', async () => {
    const domain = shops.expire!
    const id = await arrangeChallenged(domain)
    env.emulator.faults.set({ drop: 1 })
    // A run that waits for its outcomes finds the challenge by polling: attempted, neither paid
    // nor failed (the customer is awaited), and it does not wait for the customer.
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 0, failed: 0 })
    expect((await cycleOf(domain, id)).status).toBe('challenged')
    await env.run(domain, at(DEADLINE, -60_000))
    expect((await cycleOf(domain, id)).status).toBe('challenged')

    await env.run(domain, DEADLINE)
    const cycle = await cycleOf(domain, id)
    expect(cycle).toMatchObject({
      status: 'retry_scheduled',
      error_code: CHALLENGE_EXPIRED,
      // Seven days later at the billing hour (the shop's payment retry interval).
      next_retry_at: new Date('2026-12-05T01:00:00Z'),
    })
    expect(await events(domain, id, 'billing_failed')).toEqual([
      expect.objectContaining({ code: CHALLENGE_EXPIRED, kind: 'payment', attempt: 1 }),
    ])
    // The card was not refused: no update-card link, a mail that says what happened.
    expect(await events(domain, id, 'payment_update_email_sent')).toEqual([])
    const [mail] = await mails(domain, id, FAILURE_MAIL_SUBJECT)
    expect(mail!.body).toContain('期限までにカード会社による本人認証（3Dセキュア）が完了しなかったため')
    expect(attempts(domain, id)).toHaveLength(1)

    // The retry comes; this time the issuer lets the charge through.
    env.emulator.faults.reset()
    await env.run(domain, new Date('2026-12-05T01:00:00Z'))
    expect(await cycleOf(domain, id)).toMatchObject({ status: 'succeeded', attempt_no: 1 })
    expect(attempts(domain, id)).toHaveLength(2)
  })

  it('with no retries left, the shop’s final action ends the cycle', async () => {
    const domain = shops.final!
    const shop = await env.shop(domain)
    await putBillingSettings(env.pool, shop.id, {
      billingHour: 10,
      lookbackDays: 2,
      retryAttempts: 0,
      retryIntervalDays: 7,
      finalAction: 'PAUSE',
      inventoryRetryAttempts: 5,
      inventoryRetryIntervalDays: 1,
      inventoryFinalAction: 'SKIP',
      deliveryPrepDays: 0,
    })
    const id = await arrangeChallenged(domain)
    env.emulator.faults.set({ drop: 1 })
    await env.run(domain, T0)
    await env.run(domain, DEADLINE)
    expect(await cycleOf(domain, id)).toMatchObject({
      status: 'failed',
      error_code: CHALLENGE_EXPIRED,
      final_action: 'PAUSE',
    })
    expect(platformContract(domain, id).status).toBe('PAUSED')
  })

  it('a customer who authenticates after the deadline pays the cycle: the retry charges nothing', async () => {
    const domain = shops.late!
    const id = await arrangeChallenged(domain)
    await env.run(domain, T0, { wait: false })
    await env.emulator.idle()
    const cycle = await cycleOf(domain, id)
    await env.run(domain, cycle.challenge_expires_at!)
    expect((await cycleOf(domain, id)).status).toBe('retry_scheduled')

    // The late success arrives by webhook: paid, one order mail, the retry has nothing to do.
    env.emulator.completeChallenge(domain, attempts(domain, id)[0]!.id, 'success')
    await env.emulator.idle()
    expect(await cycleOf(domain, id)).toMatchObject({ status: 'succeeded', attempt_no: 0 })
    await env.run(domain, at(cycle.challenge_expires_at!, days(8)), { wait: false })
    expect(attempts(domain, id)).toHaveLength(1)
    expect(await mails(domain, id, ORDER_MAIL_SUBJECT)).toHaveLength(1)
  })

  it('a late success whose webhook is lost is found before the retry charges again', async () => {
    const domain = shops.lost!
    const id = await arrangeChallenged(domain)
    env.emulator.faults.set({ drop: 1 })
    await env.run(domain, T0)
    await env.run(domain, DEADLINE)
    const cycle = await cycleOf(domain, id)
    expect(cycle.status).toBe('retry_scheduled')
    env.emulator.completeChallenge(domain, attempts(domain, id)[0]!.id, 'success')
    await env.emulator.idle()

    const retry = await env.run(domain, cycle.next_retry_at!)
    expect(retry).toMatchObject({ attempted: 0, alreadyBilled: 1 })
    expect(attempts(domain, id)).toHaveLength(1)
    expect(await cycleOf(domain, id)).toMatchObject({ status: 'succeeded', attempt_no: 0 })
    expect(await events(domain, id, 'billed')).toHaveLength(1)
  })
})

describe('shops apart', () => {
  it("a shop's run reviews only its own challenges; the merchant sees them in 請求予定", async () => {
    const [a, b] = [shops['iso-a']!, shops['iso-b']!]
    const idA = await arrangeChallenged(a)
    const idB = await arrangeChallenged(b)
    env.emulator.faults.set({ drop: 1 })
    await env.run(a, T0)
    await env.run(b, T0)
    // B's run past the deadline expires B's challenge and leaves A's waiting.
    await env.run(b, new Date('2026-11-28T01:00:00Z'))
    expect((await cycleOf(b, idB)).status).toBe('retry_scheduled')
    expect((await cycleOf(a, idA)).status).toBe('challenged')

    const shopA = await env.shop(a)
    const res = await env.app.inject({
      method: 'GET',
      url: `/app-admin/billing/upcoming?days=7&shop=${a}&secret=s3cret-billing`,
    })
    expect(res.statusCode).toBe(200)
    const body = ZUpcomingChargesResponse.parse(res.json())
    const waiting = body.charges.filter((c) => c.authenticationDeadline !== null)
    expect(waiting).toEqual([
      expect.objectContaining({
        contractId: String(idA),
        nextBillingDate: at(T0, -60_000).toISOString(),
        authenticationDeadline: '2026-11-28T01:00:00.000Z',
        isRetry: false,
      }),
    ])
    // Listed once: not a second time as a contract due (its next billing date is still T0).
    expect(body.charges.filter((c) => c.contractId === String(idA))).toHaveLength(1)
    expect(shopA.id).not.toBe((await env.shop(b)).id)

    // The contract's 決済履歴 reads the attempt through the same mapping.
    const detail = await env.app.inject({
      method: 'GET',
      url: `/app-admin/subscriptions/${idA}?shop=${a}&secret=s3cret-billing`,
    })
    expect(detail.statusCode).toBe(200)
    const [latest] = ZSubscriptionDetail.parse(detail.json()).billingAttempts
    expect(latest).toMatchObject({
      id: String(attempts(a, idA)[0]!.id),
      outcome: 'challenged',
      ready: true,
      orderId: null,
    })
  })
})
