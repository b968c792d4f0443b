import type pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { runLoad } from './load.ts'
import { BENCH_APP_PLAN } from './seed-mirror.ts'
import { startServer } from './server-process.ts'

// The 販売プラン list (GET /app-admin/subscriptions/sellingPlanGroups, issue 13) of a shop with
// 1,000 selling plan groups of 3 plans each (one a recurring-multi plan with app-kept cycle
// discounts), read from the mirror: pages through the whole list, and name searches.
// Target: p95 ≤ 15 ms.

export const PLANS_SHOP = 'bench-plans.myshopify.com'
const SECRET = 'bench-plans-secret'
const GROUPS = 1000
const SEED = `plans-v2:${GROUPS}`

async function seed(db: pg.Pool, log: (line: string) => void) {
  await db.query('create table if not exists bench_meta (key text primary key, value text not null)')
  const { rows } = await db.query<{ value: string }>(`select value from bench_meta where key = 'plans-seed'`)
  if (rows[0]?.value === SEED) return log(`plans: bench data already present (${SEED})`)
  log(`plans: seeding ${GROUPS} selling plan groups…`)
  await db.query('delete from shops where domain = $1', [PLANS_SHOP])
  const shop = await db.query<{ id: string }>(
    `insert into shops (domain, name, secret_hash, access_token, scopes, app_plan, shopify_plan)
     values ($1, 'ベンチ販売プラン店', $2, 'shpat_bench', '{}', $3, 'Shopify Plus') returning id`,
    [PLANS_SHOP, hashSecret(SECRET), JSON.stringify(BENCH_APP_PLAN)],
  )
  const shopId = shop.rows[0]!.id
  // Group g: 「定期便 g」 with products and variants counts, created one day apart.
  await db.query(
    `insert into selling_plan_groups (shop_id, id, name, merchant_code, products_count, product_variants_count, created_at)
     select $1, 4200000000 + g, '定期便 ' || g, 'bench-' || g, 1 + g % 30, 2 + g % 90,
       timestamptz '2024-01-01' + g * interval '1 day'
     from generate_series(1, $2::int) g`,
    [shopId, GROUPS],
  )
  const policy = (n: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        __typename: i === 0 ? 'SellingPlanFixedPricingPolicy' : 'SellingPlanRecurringPricingPolicy',
        adjustmentType: 'PERCENTAGE',
        adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage: 10 },
        ...(i === 0 ? {} : { afterCycle: 1 }),
      })),
    )
  await db.query(
    `insert into selling_plans (shop_id, id, group_id, name, category, options, billing_policy, delivery_policy, pricing_policies)
     select $1, 6900000000 + g * 3 + k, 4200000000 + g, 'プラン ' || k, 'SUBSCRIPTION', array['毎月'],
       '{"interval":"MONTH","intervalCount":1}'::jsonb, '{"interval":"MONTH","intervalCount":1}'::jsonb,
       (array[$3::jsonb, $4::jsonb, $5::jsonb])[k + 1]
     from generate_series(1, $2::int) g, generate_series(0, 2) k`,
    [shopId, GROUPS, policy(0), policy(1), policy(2)],
  )
  await db.query(
    `insert into selling_plan_cycle_discounts (shop_id, selling_plan_id, cycle, adjustment_type, adjustment_value)
     select $1, 6900000000 + g * 3 + 2, c, 'PERCENTAGE', 30 - c * 5
     from generate_series(1, $2::int) g, generate_series(1, 4) c`,
    [shopId, GROUPS],
  )
  await db.query('analyze selling_plan_groups, selling_plans, selling_plan_cycle_discounts')
  await db.query(
    `insert into bench_meta (key, value) values ('plans-seed', $1)
     on conflict (key) do update set value = excluded.value`,
    [SEED],
  )
}

export async function benchSellingPlans(opts: {
  databaseUrl: string
  seconds: number
  connections: number
  log: (line: string) => void
}) {
  const { log } = opts
  const pool = createPool(opts.databaseUrl, 4)
  try {
    await migrate(pool)
    await seed(pool, log)
  } finally {
    await pool.end()
  }
  const server = await startServer({
    DATABASE_URL: opts.databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  })
  try {
    const auth = `shop=${PLANS_SHOP}&secret=${SECRET}`
    const pages = GROUPS / 10
    const kinds: Record<string, (i: number) => string> = {
      // Every page of the list, newest first, with the total.
      pages: (i) => `/app-admin/subscriptions/sellingPlanGroups?${auth}&page=${1 + ((i * 7919) % pages)}`,
      // A name search (「定期便 12」 matches 12, 120–129, 1012…), first page.
      search: (i) =>
        `/app-admin/subscriptions/sellingPlanGroups?${auth}&query=${encodeURIComponent(`定期便 ${1 + ((i * 31) % 99)}`)}`,
    }
    const first = await fetch(
      `http://127.0.0.1:${server.port}${kinds.pages!(0).replace(/page=\d+/, 'page=1')}`,
    )
    const body = (await first.json()) as { groups?: unknown[]; total?: number }
    if (first.status !== 200 || body.groups?.length !== 10 || body.total !== GROUPS)
      throw new Error(`the group list answered ${first.status} ${JSON.stringify(body).slice(0, 200)}`)
    const out: Record<string, unknown> = {}
    for (const [kind, nextPath] of Object.entries(kinds)) {
      for (const connections of [1, opts.connections]) {
        const r = await runLoad({
          port: server.port,
          connections,
          seconds: opts.seconds,
          warmupSeconds: 2,
          nextPath,
        })
        out[`${kind}_${connections}conn`] = r
        log(
          `plans ${kind.padEnd(7)} ${String(connections).padStart(2)} conn: p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms (≤ 15)  ${r.rps} req/s  errors ${r.errors}`,
        )
      }
    }
    return { groups: GROUPS, plansPerGroup: 3, kinds: out, targets: { p95Ms: 15 } }
  } finally {
    await server.stop()
  }
}
