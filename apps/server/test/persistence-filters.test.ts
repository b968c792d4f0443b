import { ZPersistenceRate } from '@teiki/contract'
import { isCountedOrder, reachedCounts, toZonedDate } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { withTransaction } from '../src/db/pool.ts'
import { attribute } from '../src/features/traffic/repo.ts'
import {
  appendContractEvents,
  type ContractRecord,
  type LineRecord,
  upsertContracts,
} from '../src/sync/contracts-repo.ts'
import { upsertOrders } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

type Shop = Awaited<ReturnType<typeof createShop>>

/** Plan → group: two plans in group 801, one in 802. */
const GROUP_OF: Record<string, string> = { '901': '801', '902': '801', '903': '802' }

type Truth = {
  startMonth: string
  startPlans: Set<string> | null
  source: string
  medium: string
  orders: Array<{ test: boolean; cancelledAt: string | null }>
}

let orderId = 7_000_000
let eventId = 0

async function setupPlans(s: Shop) {
  await env.pool.query(
    `insert into selling_plan_groups (shop_id, id, name) values ($1, 801, '毎月便'), ($1, 802, '隔月便')`,
    [s.id],
  )
  await env.pool.query(
    `insert into selling_plans (shop_id, id, group_id, name)
     values ($1, 901, 801, '毎月'), ($1, 902, 801, '毎月（大）'), ($1, 903, 802, '隔月')`,
    [s.id],
  )
}

/** A contract written as the sync writes it: upsert with its lines, then its history. */
async function writeContract(
  s: Shop,
  id: string,
  createdAt: string,
  updatedAt: string,
  plans: Array<string | null>,
) {
  const record: ContractRecord = {
    id,
    status: 'ACTIVE',
    customer_id: String(600_000 + Number(id)),
    next_billing_date: null,
    currency_code: 'JPY',
    interval: 'MONTH',
    interval_count: 1,
    billing_policy: null,
    delivery_policy: null,
    delivery_price: null,
    delivery_method: null,
    payment_method: null,
    custom_attributes: [],
    note: null,
    last_payment_status: null,
    origin_order_id: null,
    revision_id: null,
    created_at: createdAt,
    updated_at: updatedAt,
  }
  const lines: LineRecord[] = plans.map((plan, position) => ({
    contract_id: id,
    id: `gid://shopify/SubscriptionLine/${id}-${position}-${updatedAt}`,
    product_id: null,
    variant_id: null,
    title: '定期便',
    variant_title: null,
    sku: null,
    quantity: 1,
    selling_plan_id: plan,
    selling_plan_name: plan ? '毎月' : null,
    current_price: '1980',
    variant_image_url: null,
    position,
  }))
  await withTransaction(env.pool, async (tx) => {
    const changes = await upsertContracts(tx, s.id, [record], lines)
    await appendContractEvents(tx, s.id, 'sync', changes)
  })
}

async function order(
  s: Shop,
  contractId: string,
  createdAt: string,
  test: boolean,
  cancelledAt: string | null,
) {
  const id = String(orderId++)
  const row = {
    id,
    name: `#${id}`,
    contract_id: contractId,
    customer_id: null,
    total_amount: '1980',
    refunded_amount: null,
  }
  await upsertOrders(env.pool, s.id, [
    { ...row, currency_code: 'JPY', test, created_at: createdAt, cancelled_at: cancelledAt },
  ])
  return {
    id,
    write: (cancelled: string) =>
      upsertOrders(env.pool, s.id, [
        { ...row, currency_code: 'JPY', test, created_at: createdAt, cancelled_at: cancelled },
      ]),
  }
}

/** The sweep's write of an attribution (features/traffic/attribution.ts). */
async function attributeTo(s: Shop, contractId: string, source: string, medium: string) {
  await withTransaction(env.pool, (tx) =>
    attribute(tx, s.id, `co-${eventId++}`, {
      contractId,
      customerId: null,
      touch: { source, medium, campaign: 'c', content: '', occurredAt: new Date() },
    }),
  )
}

type Filter = Record<string, string>
type Row = { targetDate: string; contracts: number; entries: Array<{ count: number }> }

async function table(s: Shop, filter: Filter): Promise<Row[]> {
  const q = new URLSearchParams({ shop: s.domain, secret: s.secret, baseDate: '2026-1-1', ...filter })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/subscriptions/persistence-rate?${q}` })
  expect(res.statusCode).toBe(200)
  return ZPersistenceRate.parse(res.json()).rows
}

/** The cohort rule with the filter, contract by contract. */
function keeps(t: Truth, f: Filter): boolean {
  const plans = t.startPlans ?? new Set<string>()
  if (f.sellingPlanGroupId) {
    const ofGroup = [...plans].filter((p) => GROUP_OF[p] === f.sellingPlanGroupId)
    if (!ofGroup.some((p) => !f.sellingPlanId || p === f.sellingPlanId)) return false
  } else if (f.sellingPlanId && !plans.has(f.sellingPlanId)) return false
  if (f.source === '(direct)') return t.source === ''
  if (f.source && t.source !== f.source) return false
  if (f.medium && t.medium !== f.medium) return false
  return true
}

function expected(truth: Map<string, Truth>, f: Filter, withTest: boolean, month: string) {
  const cohort = [...truth.values()]
    .filter((t) => t.startMonth === month && keeps(t, f))
    .map((t) => t.orders.filter((o) => isCountedOrder({ contractId: 'linked', ...o }, withTest)).length)
  return [month, cohort.length, reachedCounts(cohort)]
}

async function expectTables(s: Shop, truth: Map<string, Truth>, filters: Filter[], withTest = false) {
  for (const f of filters) {
    const rows = await table(s, f)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      const month = row.targetDate.slice(0, 7)
      expect([JSON.stringify(f), month, row.contracts, row.entries.map((e) => e.count)]).toEqual([
        JSON.stringify(f),
        ...expected(truth, f, withTest, month),
      ])
    }
  }
}

const env = useTestApp()

describe('the filtered persistence table', () => {
  it('a contract stays on the plan it started on when its line moves to another plan', async () => {
    const s = await createShop(env.pool, { prefix: 'persist-move' })
    await setupPlans(s)
    await writeContract(s, '1', '2026-01-10T01:00:00Z', '2026-01-10T01:00:00Z', ['901'])
    await writeContract(s, '2', '2026-01-11T01:00:00Z', '2026-01-11T01:00:00Z', ['903'])
    await order(s, '1', '2026-01-10T01:00:00Z', false, null)
    // Contract 1's line is swapped onto the other group's plan (a later write of its lines).
    await writeContract(s, '1', '2026-01-10T01:00:00Z', '2026-02-01T01:00:00Z', ['903'])
    await order(s, '1', '2026-02-10T01:00:00Z', false, null)
    const jan = async (f: Filter) => {
      const row = (await table(s, f))[0]!
      return [row.contracts, row.entries[0]!.count, row.entries[1]!.count]
    }
    expect(await jan({ sellingPlanGroupId: '801' })).toEqual([1, 1, 1])
    expect(await jan({ sellingPlanId: '901' })).toEqual([1, 1, 1])
    expect(await jan({ sellingPlanGroupId: '802' })).toEqual([1, 0, 0])
    expect(await jan({})).toEqual([2, 1, 1])
  })

  it('an attribution that arrives after the contract and its orders moves it from direct to its channel', async () => {
    const s = await createShop(env.pool, { prefix: 'persist-late' })
    await setupPlans(s)
    await writeContract(s, '1', '2026-03-10T01:00:00Z', '2026-03-10T01:00:00Z', ['902'])
    await order(s, '1', '2026-03-10T01:00:00Z', false, null)
    await order(s, '1', '2026-04-10T01:00:00Z', false, null)
    const march = async (f: Filter) => {
      const row = (await table(s, f)).find((r) => r.targetDate === '2026-03-01')!
      return [row.contracts, row.entries[1]!.count]
    }
    expect(await march({ source: '(direct)' })).toEqual([1, 1])
    expect(await march({ source: 'instagram' })).toEqual([0, 0])
    await attributeTo(s, '1', 'instagram', 'social')
    expect(await march({ source: '(direct)' })).toEqual([0, 0])
    expect(await march({ source: 'instagram' })).toEqual([1, 1])
    expect(await march({ medium: 'social', sellingPlanGroupId: '801' })).toEqual([1, 1])
    // Its next order lands in the channel's row.
    await order(s, '1', '2026-05-10T01:00:00Z', false, null)
    const row = (await table(s, { source: 'instagram' })).find((r) => r.targetDate === '2026-03-01')!
    expect(row.entries[2]!.count).toBe(1)
  })

  it('two lines on two plans of one group: counted once for the group', async () => {
    const s = await createShop(env.pool, { prefix: 'persist-two' })
    await setupPlans(s)
    await writeContract(s, '1', '2026-02-10T01:00:00Z', '2026-02-10T01:00:00Z', ['901', '902', null])
    const feb = async (f: Filter) => (await table(s, f)).find((r) => r.targetDate === '2026-02-01')!.contracts
    expect(await feb({ sellingPlanGroupId: '801' })).toBe(1)
    expect(await feb({ sellingPlanId: '902' })).toBe(1)
    expect(await feb({ sellingPlanId: '902', sellingPlanGroupId: '802' })).toBe(0)
  })

  it('equals the cohort rule on a generated history, every filter and combination', async () => {
    const s = await createShop(env.pool, { prefix: 'persist-gen' })
    await setupPlans(s)
    let seed = 11
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!
    const plans = Object.keys(GROUP_OF)
    const at = (day: number) =>
      new Date(Date.UTC(2026, 0, 1) + day * 86_400_000 - 9 * 3_600_000).toISOString()
    const truth = new Map<string, Truth>()
    const later: Array<() => Promise<void>> = []
    const seen = { movedAway: 0, attributedAfterOrders: 0, noPlanFirst: 0 }
    for (let c = 1; c <= 60; c++) {
      const id = String(c)
      const createdAt = at(Math.floor(rand() * 150))
      // A few are first written without a plan (a line added by another app): their start plan
      // is the first one written.
      const first = rand() < 0.15 ? [null] : rand() < 0.2 ? [pick(plans), pick(plans)] : [pick(plans)]
      await writeContract(s, id, createdAt, createdAt, first)
      const t: Truth = {
        startMonth: toZonedDate(createdAt, 'Asia/Tokyo').slice(0, 7),
        startPlans: first[0] ? new Set(first as string[]) : null,
        source: '',
        medium: '',
        orders: [],
      }
      truth.set(id, t)
      let version = 1
      const move = async () => {
        const to = [pick(plans)]
        await writeContract(s, id, createdAt, at(200 + version++), to)
        if (t.startPlans && !t.startPlans.has(to[0]!)) seen.movedAway++
        if (!t.startPlans) seen.noPlanFirst++
        t.startPlans ??= new Set(to)
      }
      const orders = async (n: number) => {
        for (let k = 0; k < n; k++) {
          const o = { test: rand() < 0.15, cancelledAt: null as string | null }
          t.orders.push(o)
          const written = await order(s, id, at(160 + k), o.test, null)
          if (rand() < 0.1)
            later.push(async () => {
              o.cancelledAt = at(300)
              await written.write(o.cancelledAt)
            })
        }
      }
      const channel = pick([null, null, ['instagram', 'social'], ['google', 'cpc'], ['line', 'social']])
      const attributeLater = async () => {
        if (!channel) return
        await attributeTo(s, id, channel[0]!, channel[1]!)
        if (t.orders.length > 0) seen.attributedAfterOrders++
        ;[t.source, t.medium] = channel as [string, string]
      }
      later.push(() => orders(Math.floor(rand() * 4)), attributeLater)
      if (rand() < 0.3) later.push(move)
    }
    // The later facts in a shuffled order: orders, moves, cancellations and attributions interleave.
    for (const step of later.sort(() => rand() - 0.5)) await step()

    // The history holds what the rule is about, several times over.
    expect(Math.min(seen.movedAway, seen.attributedAfterOrders, seen.noPlanFirst)).toBeGreaterThanOrEqual(2)

    const filters: Filter[] = [
      {},
      { sellingPlanGroupId: '801' },
      { sellingPlanGroupId: '802' },
      { sellingPlanId: '902' },
      { sellingPlanId: '903', sellingPlanGroupId: '802' },
      { sellingPlanId: '901', sellingPlanGroupId: '802' },
      { source: 'instagram' },
      { source: '(direct)' },
      { medium: 'social' },
      { source: 'google', medium: 'cpc' },
      { sellingPlanGroupId: '801', source: 'line' },
      { sellingPlanGroupId: '801', source: '(direct)' },
      { sellingPlanId: '903', medium: 'social' },
    ]
    await expectTables(s, truth, filters)
    // A development store counts its test orders, filtered or not.
    await env.pool.query(`insert into shop_flags (shop_id, flag, enabled) values ($1, 'test_shop', true)`, [
      s.id,
    ])
    await expectTables(s, truth, filters, true)
  })
})
