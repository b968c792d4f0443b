import fc from 'fast-check'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createShop, testPool } from './support/fixtures.ts'

// Lifetime totals (customer_totals) and LTV months (ltv_months) are kept by adding what each
// statement on `orders` changed (migration 0031, ADR 0026). Whatever the statements — batches
// of inserts, cancellations, refunds, links, moves to another customer, deletes, run one after
// another or by two writers at once — both must equal their definitions over the orders
// (domain analytics: linked to a contract and a customer, not a test, not cancelled; net of
// refunds; per currency; months in the shop's zone).

let pool: pg.Pool
let shopId: string

beforeAll(async () => {
  pool = testPool()
  shopId = (await createShop(pool, { prefix: 'totals', timezone: 'Asia/Tokyo' })).id
})
afterAll(async () => {
  await pool.end()
})

/** Rows of customer_totals that differ from the definition over the orders (either side). */
async function totalsDiff(db: pg.Pool | pg.PoolClient, shop: string) {
  const { rows } = await db.query(
    `with def as (
       select customer_id, sum(n)::int as order_count, min(first_at) as first_order_at, max(last_at) as last_order_at,
         jsonb_object_agg(cur, jsonb_build_object('amount', total, 'orders', n)) as amounts
       from (
         select customer_id, coalesce(currency_code, 'JPY') as cur, count(*) as n, min(created_at) as first_at,
           max(created_at) as last_at, sum(coalesce(total_amount, 0) - refunded_amount) as total
         from orders
         where shop_id = $1 and customer_id is not null and contract_id is not null and not test and cancelled_at is null
         group by 1, 2
       ) c group by 1
     ), kept as (
       select customer_id, order_count, first_order_at, last_order_at, amounts from customer_totals where shop_id = $1
     )
     select 'definition' as side, * from (select * from def except select * from kept) a
     union all
     select 'kept', * from (select * from kept except select * from def) b`,
    [shop],
  )
  return rows
}

/** A running total of ltv_months' reading through month `m` (0 before the base, flat after the end). */
const through = (t: string, column: string) =>
  `coalesce(case when mo.m < ${t}.base_month then 0 else ${t}.${column}[least(mo.m - ${t}.base_month + 1, cardinality(${t}.${column}))] end, 0)`

/** (customer, currency, month) whose running totals through that month differ from the definition. */
async function ltvDiff(db: pg.Pool | pg.PoolClient, shop: string) {
  const { rows } = await db.query(
    `with def as materialized (
       select * from ltv_month_rows($1, array(select distinct customer_id from orders where shop_id = $1
         and customer_id is not null))
     ), kept as materialized (
       select customer_id, currency_code, base_month, amounts, counts from ltv_months where shop_id = $1
     ), months as (
       select distinct s.customer_id, s.currency_code, m
       from (select customer_id, currency_code, base_month, cardinality(counts) as len from def
             union all select customer_id, currency_code, base_month, cardinality(counts) from kept) s
       cross join lateral generate_series(s.base_month - 1, s.base_month + s.len) m
     )
     select mo.customer_id, mo.currency_code, mo.m, ${through('d', 'amounts')} as def_amount,
       ${through('k', 'amounts')} as kept_amount, ${through('d', 'counts')} as def_n, ${through('k', 'counts')} as kept_n
     from months mo
     left join def d on d.customer_id = mo.customer_id and d.currency_code = mo.currency_code
     left join kept k on k.customer_id = mo.customer_id and k.currency_code = mo.currency_code
     where ${through('d', 'amounts')} <> ${through('k', 'amounts')} or ${through('d', 'counts')} <> ${through('k', 'counts')}
     order by 1, 2, 3`,
    [shop],
  )
  return rows
}

type OrderOp =
  | {
      kind: 'insert'
      orders: Array<{
        customer: number
        contract: boolean
        test: boolean
        currency: string
        day: number
        amount: number
      }>
    }
  | {
      kind: 'cancel' | 'refund' | 'unlink' | 'link' | 'move' | 'delete' | 'touch'
      pick: number[]
      value: number
    }

const insertOp = fc.record({
  kind: fc.constant('insert' as const),
  orders: fc.array(
    fc.record({
      customer: fc.integer({ min: 1, max: 6 }),
      contract: fc.boolean(),
      test: fc.boolean(),
      currency: fc.constantFrom('JPY', 'JPY', 'USD'),
      day: fc.integer({ min: 0, max: 800 }),
      amount: fc.integer({ min: 1, max: 30_000 }),
    }),
    { minLength: 1, maxLength: 8 },
  ),
})
const changeOp = fc.record({
  kind: fc.constantFrom('cancel', 'refund', 'unlink', 'link', 'move', 'delete', 'touch') as fc.Arbitrary<
    'cancel' | 'refund' | 'unlink' | 'link' | 'move' | 'delete' | 'touch'
  >,
  pick: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  value: fc.integer({ min: 1, max: 6 }),
})

let nextOrderId = 1

/** Applies one operation to the shop's orders as one statement, as the mirror's writers do. */
async function apply(db: pg.Pool | pg.PoolClient, shop: string, op: OrderOp): Promise<void> {
  if (op.kind === 'insert') {
    const rows = op.orders.map((o) => ({
      id: nextOrderId++,
      customer_id: o.customer,
      contract_id: o.contract ? 100 + o.customer : null,
      total_amount: o.amount,
      currency_code: o.currency,
      test: o.test,
      // Around month ends in Japan time: 14:30 UTC is 23:30 JST.
      created_at: new Date(Date.UTC(2025, 0, 1, 14, 30) + o.day * 86_400_000).toISOString(),
    }))
    await db.query(
      `insert into orders (shop_id, id, customer_id, contract_id, total_amount, currency_code, test, created_at)
       select $1, r.id, r.customer_id, r.contract_id, r.total_amount, r.currency_code, r.test, r.created_at
       from jsonb_to_recordset($2::jsonb) as r(id bigint, customer_id bigint, contract_id bigint, total_amount numeric,
         currency_code text, test boolean, created_at timestamptz)`,
      [shop, JSON.stringify(rows)],
    )
    return
  }
  const { rows } = await db.query<{ id: string }>(
    'select id::text from orders where shop_id = $1 order by id',
    [shop],
  )
  if (rows.length === 0) return
  const ids = [...new Set(op.pick.map((p) => rows[p % rows.length]!.id))]
  const set: Record<typeof op.kind, string> = {
    cancel: "cancelled_at = created_at + interval '1 day'",
    refund: `refunded_amount = least(coalesce(total_amount, 0), refunded_amount + ${op.value * 100})`,
    unlink: 'contract_id = null',
    link: 'contract_id = 100 + coalesce(customer_id, 0)',
    move: `customer_id = ${op.value}`,
    touch: "name = coalesce(name, '') || '.'",
    delete: '',
  }
  if (op.kind === 'delete')
    await db.query('delete from orders where shop_id = $1 and id = any($2)', [shop, ids])
  else await db.query(`update orders set ${set[op.kind]} where shop_id = $1 and id = any($2)`, [shop, ids])
}

describe('lifetime totals and LTV months by delta', () => {
  it('equal their definitions after any sequence of order statements', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(insertOp, insertOp, changeOp), { minLength: 1, maxLength: 10 }),
        async (ops) => {
          const shop = (await createShop(pool, { prefix: 'totals-prop', timezone: 'Asia/Tokyo' })).id
          for (const op of ops) await apply(pool, shop, op as OrderOp)
          expect(await totalsDiff(pool, shop)).toEqual([])
          expect(await ltvDiff(pool, shop)).toEqual([])
        },
      ),
      { numRuns: 40, seed: 2111 },
    )
  })

  it('stay exact when two writers change the same customers at once, neither waiting on a lock of its own', async () => {
    const a = await pool.connect()
    const b = await pool.connect()
    try {
      const writer = async (db: pg.PoolClient, seed: number) => {
        const ops = fc.sample(fc.oneof(insertOp, changeOp), { numRuns: 12, seed }) as OrderOp[]
        for (const op of ops) {
          await db.query('begin')
          await apply(db, shopId, op)
          await db.query('commit')
        }
      }
      // The same customers (1–6) written from both connections, interleaved.
      await Promise.all([writer(a, 1), writer(b, 2)])
      await Promise.all([writer(a, 4), writer(b, 5)])
    } finally {
      a.release()
      b.release()
    }
    expect(await totalsDiff(pool, shopId)).toEqual([])
    expect(await ltvDiff(pool, shopId)).toEqual([])
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from customer_totals where shop_id = $1',
      [shopId],
    )
    expect(rows[0]!.n).toBeGreaterThan(0)
  })
})
