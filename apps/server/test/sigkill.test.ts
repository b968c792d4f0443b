import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { ZBillingRunsResponse } from '@teiki/contract'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { FAILURE_MAIL_SUBJECT, ORDER_MAIL_SUBJECT } from '../src/billing/engine.ts'
import { type AppProcess, onPostgres, requestBillingRun, useProcessWorld } from './support/app-process.ts'
import { chargeableContracts } from './support/billing.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 11 item 6 on real processes: the server (apps/server/src/main.ts) is killed with
// SIGKILL five times at random points of a billing run, and five times while a merchant edits
// notes, and started again each time. Afterwards the platform (an emulator this test process
// owns, so it outlives every kill) and the database must show each due contract charged
// exactly once, every mail the settled outcomes decided recorded and sent once, the killed
// runs 中断 and resumed, and every edit that answered 200 on the platform and in the mirror.
// The kill points come from a seeded generator (printed), so a failure can be replayed.

const BILL_SHOP = testDomain('kill-bill')
const EDIT_SHOP = testDomain('kill-edit')
const SECRET = 'sigkill-login-secret'
const NOW = new Date('2026-11-25T01:00:00Z')
const DUE_AT = new Date('2026-11-24T01:00:00Z')
const SEED = Number(process.env.SIGKILL_SEED ?? 20261125)
const KILLS = 5

/** mulberry32: the kill points, the same for a given seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

const env = useProcessWorld({
  label: 'sigkill',
  shops: [
    { domain: BILL_SHOP, contracts: 150 },
    { domain: EDIT_SHOP, contracts: 120 },
  ],
  billingDelayMs: 150,
})
beforeAll(async () => {
  if (!onPostgres()) return
  for (const domain of [BILL_SHOP, EDIT_SHOP]) {
    const shop = await env.world.install(domain, SECRET)
    // Today's scheduled run counts as made: the runs here are the one this test asks for and
    // the resumes of the killed ones (the real clock's tick would add a third, racing run).
    await env.world.pool.query(
      `insert into billing_schedule (shop_id, last_run_date) values ($1, '2999-12-31')`,
      [shop.id],
    )
  }
}, 180_000)

/**
 * Resolves once `check` holds (polled), failing after `timeout` ms with what it last saw (a
 * check may answer a description instead of false).
 */
const until = (
  check: () => boolean | string | Promise<boolean | string>,
  timeout = 60_000,
  what = 'condition',
  interval = 10,
) =>
  vi.waitFor(
    async () => {
      const result = await check()
      if (result !== true) throw new Error(`still waiting for ${what}${result ? `: ${result}` : ''}`)
    },
    { timeout, interval },
  )

/**
 * Due contracts, in the order the run takes them (by id) every fifth one `failing` (its
 * customer's card is declined: a failure mail each, with a retry and the card update link),
 * the others charged.
 */
function arrangeCharges(count: number) {
  const platform = env.world.emulator.store.shop(BILL_SHOP)!
  const due = chargeableContracts(env.world.emulator, BILL_SHOP, count)
  const customerOf = (id: number) => platform.contracts.find((c) => c.id === id)!.customerId
  const failing = due.filter(
    (id, i) => i % 5 === 2 && due.filter((other) => customerOf(other) === customerOf(id)).length === 1,
  )
  for (const id of failing)
    env.world.emulator.faults.failPayment(BILL_SHOP, customerOf(id), 'PAYMENT_METHOD_DECLINED')
  return { chargeable: due.filter((id) => !failing.includes(id)), failing }
}

const billingCalls = () => env.world.emulator.callLog.filter((c) => c.shop === BILL_SHOP).length
/** The attempts the app asked for (the generated history has older ones). */
const attemptsOf = (id: number) =>
  env.world.emulator.store
    .shop(BILL_SHOP)!
    .billingAttempts.filter((a) => a.contractId === id && a.idempotencyKey?.startsWith('billing:'))
const appAttempts = () =>
  env.world.emulator.store
    .shop(BILL_SHOP)!
    .billingAttempts.filter((a) => a.idempotencyKey?.startsWith('billing:'))

const shopIdOf = async (domain: string) =>
  (await env.world.pool.query<{ id: string }>('select id::text from shops where domain = $1', [domain]))
    .rows[0]!.id

/**
 * Kill 1 lands where the issue lost mails: a failure's settlement has committed and its card
 * update link is on its way to the platform (300 ms), so its mail is not sent yet. The mail
 * must be in the outbox already. Answers the cycles that had failed.
 */
async function killRightAfterAFailureSettles(app: AppProcess, shopId: string): Promise<string[]> {
  env.world.emulator.faults.set({ latencyMs: 300 })
  const failed = async () => {
    const { rows } = await env.world.pool.query<{ id: string }>(
      `select id::text from billing_cycles where shop_id = $1 and status = 'retry_scheduled'`,
      [shopId],
    )
    return rows.map((r) => r.id)
  }
  await until(async () => (await failed()).length > 0, 90_000, 'a failure settled')
  await env.kill(app)
  const cutOff = await failed()
  const keys = cutOff.map((id) => `failure:${id}:0`).sort()
  const pending = await env.world.pool.query<{ dedupe_key: string }>(
    `select dedupe_key from mail_outbox where shop_id = $1 and dedupe_key = any($2::text[]) order by dedupe_key`,
    [shopId, keys],
  )
  // Decided with the settlement: in the outbox although the process died before sending.
  expect(pending.rows.map((r) => r.dedupe_key)).toEqual(keys)
  return cutOff
}

/** true once every cycle is decided, no run is 実行中 or unresumed and no mail waits; else what is left. */
async function settled(shopId: string, due: number): Promise<true | string> {
  const { rows } = await env.world.pool.query<Record<string, number>>(
    `select (select count(*)::int from billing_cycles where shop_id = $1) as cycles,
       (select count(*)::int from billing_cycles where shop_id = $1 and status = 'attempting') as open,
       (select count(*)::int from billing_runs where shop_id = $1 and finished_at is null) as runs,
       (select count(*)::int from billing_runs a where a.shop_id = $1 and a.aborted_at is not null
          and not exists (select 1 from billing_runs r where r.shop_id = $1 and r.resumed_from = a.id)) as unresumed,
       (select count(*)::int from mail_outbox where shop_id = $1 and status in ('pending', 'sending')) as mails`,
    [shopId],
  )
  const r = rows[0]!
  if (r.cycles === due && r.open === 0 && r.runs === 0 && r.unresumed === 0 && r.mails === 0) return true
  // What is left, for the failure message.
  const left = await env.world.pool.query(
    `select 'cycle' as kind, id::text, status, attempt_id::text as detail from billing_cycles
       where shop_id = $1 and status = 'attempting'
     union all select 'run', id::text, trigger, owner from billing_runs where shop_id = $1 and finished_at is null
     union all select 'mail', id::text, status, coalesce(claimed_by, next_attempt_at::text) from mail_outbox
       where shop_id = $1 and status in ('pending', 'sending')`,
    [shopId],
  )
  return JSON.stringify({ ...r, left: left.rows })
}

/** One platform attempt per due contract, one order per paid one, one history row per outcome. */
async function expectChargedOnce(shopId: string, chargeable: number[], failing: number[]) {
  const due = [...chargeable, ...failing]
  for (const id of due) expect(attemptsOf(id), `contract ${id}`).toHaveLength(1)
  const orders = env.world.emulator.store.shop(BILL_SHOP)!.orders
  for (const id of chargeable) {
    const attempt = attemptsOf(id)[0]!
    expect(attempt.orderId, `order of contract ${id}`).not.toBeNull()
    expect(orders.filter((o) => o.id === attempt.orderId)).toHaveLength(1)
  }
  const cycles = await env.world.pool.query<{ contract_id: string; status: string }>(
    'select contract_id::text, status from billing_cycles where shop_id = $1',
    [shopId],
  )
  const statusOf = new Map(cycles.rows.map((r) => [Number(r.contract_id), r.status]))
  for (const id of chargeable) expect(statusOf.get(id)).toBe('succeeded')
  for (const id of failing) expect(statusOf.get(id)).toBe('retry_scheduled')
  const events = await env.world.pool.query<{ n: number }>(
    `select count(*)::int as n from contract_events
     where shop_id = $1 and type in ('billed', 'billing_failed') group by contract_id, type`,
    [shopId],
  )
  expect(events.rows.map((r) => r.n)).toEqual(Array(due.length).fill(1))
}

/** Every mail the outcomes decided (customers with an address): once, sent (an .eml without SMTP). */
async function expectMailsOnce(shopId: string, due: number) {
  const withMail = await env.world.pool.query<{ id: string; status: string }>(
    `select b.id::text, b.status from billing_cycles b
     join subscription_contracts c on c.shop_id = b.shop_id and c.id = b.contract_id
     join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where b.shop_id = $1 and cu.email is not null and cu.email <> ''`,
    [shopId],
  )
  const expected = withMail.rows
    .map((r) => (r.status === 'succeeded' ? `order:${r.id}` : `failure:${r.id}:0`))
    .sort()
  const mails = await env.world.pool.query<{
    id: string
    dedupe_key: string
    subject: string
    status: string
  }>('select id::text, dedupe_key, subject, status from mail_outbox where shop_id = $1 order by dedupe_key', [
    shopId,
  ])
  expect(expected.length).toBeGreaterThan(due / 2)
  expect(mails.rows.map((m) => m.dedupe_key)).toEqual(expected)
  for (const m of mails.rows) {
    expect(m.status).toBe('stored')
    expect(m.subject).toBe(m.dedupe_key.startsWith('order:') ? ORDER_MAIL_SUBJECT : FAILURE_MAIL_SUBJECT)
    expect(existsSync(join(env.world.dataDir, 'outbox', `${m.id}.eml`)), `mail ${m.id}`).toBe(true)
  }
}

/** 最近の請求実行: the killed runs 中断 (none 実行中), each resumed once. */
async function expectRunsResumed(app: AppProcess, shopId: string) {
  const res = await fetch(`${app.url}/app-admin/billing/runs?limit=50&shop=${BILL_SHOP}&secret=${SECRET}`)
  const { runs } = ZBillingRunsResponse.parse(await res.json())
  const aborted = runs.filter((r) => r.abortedAt !== null)
  expect(aborted.length).toBeGreaterThanOrEqual(1)
  expect(runs.every((r) => r.finishedAt !== null)).toBe(true)
  for (const r of aborted) expect(r.error).toContain('中断')
  const resumes = await env.world.pool.query<{ resumed_from: string; n: number }>(
    `select resumed_from::text, count(*)::int as n from billing_runs
     where shop_id = $1 and trigger = 'resume' group by resumed_from`,
    [shopId],
  )
  expect(resumes.rows.map((r) => r.resumed_from).sort()).toEqual(aborted.map((r) => r.id).sort())
  expect(resumes.rows.every((r) => r.n === 1)).toBe(true)
}

/**
 * Merchants editing notes over HTTP, each edit on a contract of `queue` not edited before (so
 * the note an answered edit set is the note that must stay): which edits answered 200 (`acked`)
 * and which were cut off without an answer (`cutOff`: maybe applied, never edited again).
 */
function notesEditing(queue: string[]) {
  const acked = new Map<string, string>()
  const cutOff: string[] = []
  const base = `http://127.0.0.1:${env.world.port}`
  const auth = `shop=${EDIT_SHOP}&secret=${SECRET}`
  let stopped = false
  /** One merchant: a detail page, then its note, contract after contract. */
  const merchant = async (m: number) => {
    while (!stopped) {
      const id = queue.shift()
      if (!id) return
      const note = `担当${m}のメモ ${id}: 置き配希望`
      try {
        const page = await fetch(`${base}/app-admin/subscriptions/${id}?${auth}`)
        const { revision } = (await page.json()) as { revision?: string }
        if (page.status !== 200) continue
        const res = await fetch(`${base}/app-admin/subscription-contracts/${id}/note?${auth}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ note, revision }),
        })
        if (res.status === 200) acked.set(id, note)
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code
        // Refused: the request never reached a process, the contract is still free. Anything
        // else may have been applied without an answer: that contract is not edited again.
        if (code === 'ECONNREFUSED') queue.unshift(id)
        else cutOff.push(id)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
  }
  return {
    acked,
    cutOff,
    merchant,
    stop() {
      stopped = true
    },
  }
}

describe.skipIf(!onPostgres())('SIGKILL of the server process', () => {
  it('five kills at random points of a billing run: each due contract charged once, every decided mail sent once, the killed runs 中断 and resumed', async () => {
    const { chargeable, failing } = arrangeCharges(48)
    expect(failing.length).toBeGreaterThanOrEqual(5)
    const due = [...chargeable, ...failing]
    await env.world.arrangeDue(BILL_SHOP, due, DUE_AT)
    const shopId = await shopIdOf(BILL_SHOP)
    let app = await env.start()
    void requestBillingRun(app.url, BILL_SHOP, NOW).catch(() => null)

    const cutOff = await killRightAfterAFailureSettles(app, shopId)
    const points = [
      `kill 1 after failure ${cutOff.join(', ')} settled: ${appAttempts().length}/${due.length} attempts`,
    ]
    expect(appAttempts().length).toBeLessThan(due.length)
    app = await env.start()
    // Kills 2–5 at random points: after 2–30 more Admin API calls (creates, reads, settlement
    // mutations, whichever come), on a platform slow enough to leave a run to kill.
    env.world.emulator.faults.set({ latencyMs: 40 })
    const next = random(SEED)
    for (let k = 1; k < KILLS; k++) {
      const calls = 2 + Math.floor(next() * 29)
      const from = billingCalls()
      await until(() => billingCalls() - from >= calls, 90_000, `${calls} platform calls (kill ${k + 1})`)
      points.push(`kill ${k + 1} after ${calls} calls: ${appAttempts().length}/${due.length} attempts`)
      await env.kill(app)
      app = await env.start()
    }
    console.log(`[sigkill] seed ${SEED}: ${points.join('; ')}`)
    // The platform at full speed again; the declined cards stay declined.
    env.world.emulator.faults.set({ latencyMs: 0 })

    // Everything the kills left settles: every cycle decided, no run 実行中, no mail pending.
    await until(() => settled(shopId, due.length), 150_000, 'every cycle, run and mail settled', 250)
    await expectChargedOnce(shopId, chargeable, failing)
    await expectMailsOnce(shopId, due.length)
    await expectRunsResumed(app, shopId)
    await env.kill(app)
  }, 600_000)

  it('five kills while merchants edit notes: every edit that answered 200 is on the platform and in the mirror', async () => {
    const platform = env.world.emulator.store.shop(EDIT_SHOP)!
    // Each edit goes to a contract not edited before, so "the note it set" is what must stay.
    const queue = platform.contracts
      .filter((c) => c.status === 'ACTIVE' || c.status === 'PAUSED')
      .map((c) => String(c.id))
    const editing = notesEditing(queue)
    const { acked, cutOff } = editing
    env.world.emulator.faults.set({ latencyMs: 30 })
    let app = await env.start()
    const merchants = [1, 2].map(editing.merchant)
    const next = random(SEED + 1)
    const points: string[] = []
    for (let k = 0; k < KILLS; k++) {
      const edits = 1 + Math.floor(next() * 6)
      const from = acked.size
      await until(() => acked.size - from >= edits, 90_000, `${edits} answered edits (kill ${k + 1})`)
      points.push(`kill ${k + 1} after ${edits} edits`)
      await env.kill(app)
      app = await env.start()
    }
    // A few more on the last process, then the merchants stop.
    const last = acked.size
    await until(() => acked.size - last >= 2, 90_000, 'edits after the last restart')
    editing.stop()
    await Promise.all(merchants)
    env.world.emulator.faults.reset()
    console.log(
      `[sigkill] seed ${SEED + 1}: ${points.join('; ')}; ${acked.size} answered, ${cutOff.length} cut off`,
    )

    const shop = (
      await env.world.pool.query<{ id: string }>('select id::text from shops where domain = $1', [EDIT_SHOP])
    ).rows[0]!.id
    const ids = [...acked.keys()]
    const mirror = await env.world.pool.query<{ id: string; note: string | null }>(
      'select id::text, note from subscription_contracts where shop_id = $1 and id = any($2::bigint[])',
      [shop, ids],
    )
    const mirrored = new Map(mirror.rows.map((r) => [r.id, r.note]))
    const history = await env.world.pool.query<{ id: string; n: number }>(
      `select contract_id::text as id, count(*)::int as n from contract_events
       where shop_id = $1 and type = 'note_changed' and contract_id = any($2::bigint[]) group by contract_id`,
      [shop, ids],
    )
    const logged = new Map(history.rows.map((r) => [r.id, r.n]))
    for (const [id, note] of acked) {
      expect(platform.contracts.find((c) => String(c.id) === id)!.note, `platform note of ${id}`).toBe(note)
      expect(mirrored.get(id), `mirror note of ${id}`).toBe(note)
      expect(logged.get(id), `note_changed of ${id}`).toBe(1)
    }
    await env.kill(app)
  }, 600_000)
})
