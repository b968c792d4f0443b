import { beforeAll, describe, expect, it } from 'vitest'
import {
  type BillingEnv,
  chargeableContracts,
  EMULATOR_NOW,
  refreshMirror,
  startBillingEnv,
} from './support/billing.ts'
import { type DbWork, isolatedDatabase, measureWork, perItem, resetWork } from './support/db-work.ts'

// Issue 21: every path that writes orders must do the same database work per contract whatever
// the shop's size. The rollups kept inside each order insert (reports, lifetime totals, LTV
// months) once recomputed each customer from all their orders with a plan that scanned the
// whole shop: each thousand contracts of a first sync took longer than the one before, and a
// Plus shop's billing day ran at a fifth of the platform's bound. This test makes the same
// generated shop at two sizes and compares the work per item of three paths, read from the
// database's own statistics (buffers touched, rows read and written), not from a clock:
//
//   the first sync (bulk exports: customers, contracts with lines and orders), per contract;
//   a billing run's settlements (charge, order mirrored, next date), per billed contract;
//   a burst of refund webhooks (refunds/create, orders/updated), per refunded order.
//
// Work that grows with the size (a scan of the shop's orders per order written) shows as a
// ratio near the size ratio (4); work per item that does not grow stays near 1.

const SMALL = 600
const LARGE = 2_400
const BILLED = 30
/** Indexes get a level deeper and pages fuller at four times the rows: well under the size ratio. */
const MAX_GROWTH = 1.5
const DUE_AT = new Date(EMULATOR_NOW.getTime() + 3_600_000)
const RUN_AT = new Date(EMULATOR_NOW.getTime() + 2 * 3_600_000)
const FAR = new Date('2027-06-01T00:00:00Z')

type Figures = { sync: DbWork; billing: DbWork; webhooks: DbWork }
const figures: Record<number, Figures> = {}

async function measureShop(contracts: number): Promise<Figures> {
  const db = await isolatedDatabase(`growth${contracts}`)
  const domain = `growth-${contracts}-${process.pid}.myshopify.com`
  let env: BillingEnv | undefined
  try {
    await resetWork(db.pool)
    env = await startBillingEnv({
      shops: [{ domain, contracts }],
      pool: db.pool,
      bulkSync: true,
      billingDelayMs: 1,
      webhooks: true,
      moreTopics: ['refunds/create', 'orders/updated'],
    })
    const sync = perItem(await measureWork(db.pool), contracts)
    await seedHistory(env, domain)
    const billed = await arrangeDue(env, domain)
    // Autovacuum is off in this database (none of its reads may land in the counters): the
    // statistics are those the sync's own ANALYZE and the history's left.
    await resetWork(db.pool)
    const summary = await env.run(domain, RUN_AT)
    expect(summary).toMatchObject({ due: BILLED, succeeded: BILLED })
    const billing = perItem(await measureWork(db.pool), BILLED)
    await resetWork(db.pool)
    await refundBilledOrders(env, domain, billed)
    const webhooks = perItem(await measureWork(db.pool), BILLED)
    return { sync, billing, webhooks }
  } finally {
    await env?.close()
    await db.drop()
  }
}

/**
 * What a shop that has billed for a while holds beside the platform's data, in proportion to
 * its contracts: six settled monthly cycles per contract with their attempts, order mails and
 * the webhook deliveries that came with them. A billing day reads these tables; their size
 * must not be what it pays for.
 */
async function seedHistory(env: BillingEnv, domain: string): Promise<void> {
  const shop = await env.shop(domain)
  const months = 'generate_series(1, 6) k'
  await env.pool.query(
    `insert into billing_cycles (shop_id, contract_id, cycle_date, due_at, origin, status, idempotency_key,
       attempt_id, order_id, amount, currency_code, cycle_index, settled_at)
     select c.shop_id, c.id, (date '2026-05-10' + (k * 31)), timestamptz '2026-05-10 01:00Z' + k * interval '31 days',
       'schedule', 'succeeded', 'billing:' || c.id || ':' || k || ':0', 9000000000 + c.id * 10 + k, null, 1980, 'JPY', k,
       timestamptz '2026-05-10 01:05Z' + k * interval '31 days'
     from subscription_contracts c, ${months} where c.shop_id = $1`,
    [shop.id],
  )
  await env.pool.query(
    `insert into billing_attempts (shop_id, id, contract_id, idempotency_key, created_at, ready)
     select shop_id, attempt_id, contract_id, idempotency_key, due_at, true from billing_cycles where shop_id = $1`,
    [shop.id],
  )
  await env.pool.query(
    `insert into mail_outbox (shop_id, to_address, subject, body, status, dedupe_key, sent_at, created_at)
     select shop_id, 'history@example.jp', 'ご注文ありがとうございます（定期便）', '…', 'sent', 'order:' || id, settled_at, settled_at
     from billing_cycles where shop_id = $1`,
    [shop.id],
  )
  await env.pool.query(
    `insert into webhook_deliveries (shop_id, webhook_id, topic, received_at, processed_at)
     select shop_id, 'history-' || id || '-' || t, t, settled_at, settled_at
     from billing_cycles, unnest(array['subscription_billing_attempts/success', 'orders/create']) t where shop_id = $1`,
    [shop.id],
  )
  // Months of history are analyzed as they grow (autovacuum; on PGlite the db-analyze job).
  await env.pool.query('analyze billing_cycles, billing_attempts, mail_outbox, webhook_deliveries')
}

/** BILLED chargeable contracts due within the hour; every other contract moved far out. */
async function arrangeDue(env: BillingEnv, domain: string): Promise<number[]> {
  const due = chargeableContracts(env.emulator, domain, BILLED)
  const platform = env.emulator.store.shop(domain)!
  for (const c of platform.contracts) {
    c.nextBillingDate = (due.includes(c.id) ? DUE_AT : FAR).getTime()
    c.updatedAt = Math.max(c.updatedAt + 1000, Date.now())
    c.revisionId += 1
  }
  env.emulator.store.changed()
  const shop = await env.shop(domain)
  await env.pool.query(
    'update subscription_contracts set next_billing_date = $2 where shop_id = $1 and id <> all($3::bigint[])',
    [shop.id, FAR, due],
  )
  await refreshMirror(env, domain, due)
  return due
}

/** Refunds ¥100 of each contract's newest order on the platform and waits for the mirror. */
async function refundBilledOrders(env: BillingEnv, domain: string, contracts: number[]): Promise<void> {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ id: string }>(
    `select distinct on (contract_id) id::text from orders where shop_id = $1 and contract_id = any($2::bigint[])
     order by contract_id, created_at desc`,
    [shop.id, contracts],
  )
  expect(rows).toHaveLength(contracts.length)
  for (const { id } of rows) {
    const gid = `gid://shopify/Order/${id}`
    const res = await env.emulator.graphql(domain, {
      query: `mutation($input: RefundInput!) { refundCreate(input: $input) { userErrors { message } } }`,
      variables: {
        input: {
          orderId: gid,
          transactions: [{ orderId: gid, amount: '100', gateway: 'manual', kind: 'REFUND' }],
        },
      },
    })
    expect(res.errors).toBeUndefined()
  }
  const ids = rows.map((r) => r.id)
  for (;;) {
    const { rows: done } = await env.pool.query<{ n: number }>(
      'select count(*)::int as n from orders where shop_id = $1 and id = any($2::bigint[]) and refunded_amount > 0',
      [shop.id, ids],
    )
    if (done[0]!.n === ids.length) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  // Both deliveries of each refund (refunds/create, orders/updated) answered.
  await env.emulator.idle()
}

beforeAll(async () => {
  figures[SMALL] = await measureShop(SMALL)
  figures[LARGE] = await measureShop(LARGE)
  const rows = (['sync', 'billing', 'webhooks'] as const).map((path) => ({
    path,
    ...Object.fromEntries(
      (['blocks', 'rowsRead', 'rowsWritten'] as const).map((k) => [
        k,
        `${figures[SMALL]![path][k].toFixed(1)} → ${figures[LARGE]![path][k].toFixed(1)}`,
      ]),
    ),
  }))
  console.table(rows)
  for (const size of [SMALL, LARGE]) console.log(size, JSON.stringify(figures[size]))
}, 600_000)

describe('database work per item does not grow with the shop', () => {
  it.each(['sync', 'billing', 'webhooks'] as const)(
    '%s: blocks and rows per item at 4× the contracts',
    (path) => {
      const small = figures[SMALL]![path]
      const large = figures[LARGE]![path]
      expect(small.blocks).toBeGreaterThan(0)
      expect(small.rowsWritten).toBeGreaterThan(0)
      expect(
        large.blocks / small.blocks,
        `${path}: buffers per item ${small.blocks} → ${large.blocks}`,
      ).toBeLessThan(MAX_GROWTH)
      expect(
        large.rowsRead / small.rowsRead,
        `${path}: rows read per item ${small.rowsRead} → ${large.rowsRead} (${JSON.stringify(large.top)})`,
      ).toBeLessThan(MAX_GROWTH)
      expect(
        large.rowsWritten / small.rowsWritten,
        `${path}: rows written per item ${small.rowsWritten} → ${large.rowsWritten}`,
      ).toBeLessThan(MAX_GROWTH)
    },
  )
})
