import type pg from 'pg'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { BENCH_APP_PLAN } from './seed-mirror.ts'

// The analytics bench shop (issue 14): 100,000 contracts started over 3 years with their
// history, written through the same triggers as the app's writes (the rollups of migration
// 0018 are built as the rows go in, 5,000 contracts a statement): monthly orders (one in 50
// contracts in USD, one order in 97 cancelled), a `billed` event and a billing attempt per
// recurring order, cancellations, pauses and resumes, failed charges, a source for 60%.
// About 5.4 million history rows (contract_events + orders + billing_attempts).

export const ANALYTICS_SHOP = 'bench-analytics.myshopify.com'
export const ANALYTICS_SECRET = 'bench-analytics-secret'
export const ANALYTICS_PIXEL_KEY = 'bench-analytics-pixel-key'
export const ANALYTICS_CONTRACTS = 100_000
const CHUNK = 5_000
const SEED = `analytics-v2:${ANALYTICS_CONTRACTS}`

export async function seedAnalytics(db: pg.Pool, log: (line: string) => void): Promise<string> {
  await db.query('create table if not exists bench_meta (key text primary key, value text not null)')
  const { rows } = await db.query<{ value: string }>(
    `select value from bench_meta where key = 'analytics-seed'`,
  )
  const existing = await db.query<{ id: string }>('select id::text from shops where domain = $1', [
    ANALYTICS_SHOP,
  ])
  if (rows[0]?.value === SEED && existing.rows[0]) {
    log(`analytics: bench data already present (${SEED})`)
    return existing.rows[0].id
  }
  log(`analytics: seeding ${ANALYTICS_CONTRACTS} contracts and their history…`)
  await db.query('delete from shops where domain = $1', [ANALYTICS_SHOP])
  const shop = await db.query<{ id: string }>(
    `insert into shops (domain, name, secret_hash, access_token, scopes, app_plan, iana_timezone)
     values ($1, 'ベンチ分析店', $2, 'shpat_bench', '{}', $3, 'Asia/Tokyo') returning id::text`,
    [ANALYTICS_SHOP, hashSecret(ANALYTICS_SECRET), JSON.stringify(BENCH_APP_PLAN)],
  )
  const shopId = shop.rows[0]!.id
  await db.query('insert into traffic_pixel_keys (shop_id, key) values ($1, $2)', [
    shopId,
    ANALYTICS_PIXEL_KEY,
  ])
  await db.query(
    `insert into selling_plan_groups (shop_id, id, name) select $1::bigint, 810 + g, '定期便 ' || g from generate_series(1, 3) g`,
    [shopId],
  )
  await db.query(
    `insert into selling_plans (shop_id, id, group_id, name) select $1::bigint, 910 + g, 810 + g, '毎月' from generate_series(1, 3) g`,
    [shopId],
  )
  const started = Date.now()
  for (let from = 1; from <= ANALYTICS_CONTRACTS; from += CHUNK) {
    await seedChunk(db, shopId, from, Math.min(ANALYTICS_CONTRACTS, from + CHUNK - 1))
    if ((from - 1) % 25_000 === 0)
      log(`analytics: ${from + CHUNK - 1} contracts (${Math.round((Date.now() - started) / 1000)} s)`)
  }
  await db.query('analyze')
  await db.query(
    `insert into bench_meta (key, value) values ('analytics-seed', $1) on conflict (key) do update set value = excluded.value`,
    [SEED],
  )
  return shopId
}

// Contract i started `(i * 7919) % 1155` days after 2023-09-01 (Tokyo); it orders every month
// until now, or (one in five) for 1 + i % 13 months and then cancels.
const CONTRACTS = `
  select i, 9000000000 + i as id, c.created,
    case when i % 5 = 0 then least(m.months, 1 + i % 13) else m.months end as n
  from generate_series($2::int, $3::int) i,
    lateral (select timestamptz '2023-09-01 10:00+09' + ((i * 7919) % 1155) * interval '1 day'
      + (i % 50000) * interval '1 second' as created) c,
    lateral (select 1 + floor(extract(epoch from now() - c.created) / (30.44 * 86400))::int as months) m`

async function seedChunk(db: pg.Pool, shopId: string, from: number, to: number) {
  const args = [shopId, from, to]
  await db.query(
    `insert into subscription_contracts (shop_id, id, status, customer_id, currency_code, created_at, updated_at)
     select $1::bigint, x.id, case when x.i % 5 = 0 then 'CANCELLED' when x.i % 22 = 11 then 'PAUSED' else 'ACTIVE' end,
       700000000 + x.i, case when x.i % 50 = 0 then 'USD' else 'JPY' end, x.created, now()
     from (${CONTRACTS}) x`,
    args,
  )
  await db.query(
    `insert into subscription_lines (shop_id, contract_id, id, title, quantity, selling_plan_id)
     select $1::bigint, 9000000000 + i, 'line-' || i, '定期便', 1, 911 + i % 3 from generate_series($2::int, $3::int) i`,
    args,
  )
  // Events: created; billed per recurring order; cancel after the last order; a pause (and
  // for half of them a resume); a failed charge in the second month for one in seven.
  await db.query(
    `insert into contract_events (shop_id, contract_id, type, occurred_at, source, payload)
     select $1::bigint, x.id, 'created', x.created, 'sync', '{}'::jsonb from (${CONTRACTS}) x
     union all
     select $1::bigint, x.id, 'billed', x.created + k * interval '1 month', 'billing', jsonb_build_object('cycle', k + 1)
     from (${CONTRACTS}) x, generate_series(1, x.n - 1) k
     union all
     select $1::bigint, x.id, 'status_changed', x.created + (x.n - 1) * interval '1 month' + interval '5 days', 'app',
       '{"from":"ACTIVE","to":"CANCELLED"}'::jsonb from (${CONTRACTS}) x where x.i % 5 = 0
     union all
     select $1::bigint, x.id, 'status_changed', x.created + interval '40 days', 'app', '{"from":"ACTIVE","to":"PAUSED"}'::jsonb
     from (${CONTRACTS}) x where x.i % 11 = 0 and x.i % 5 <> 0
     union all
     select $1::bigint, x.id, 'status_changed', x.created + interval '50 days', 'app', '{"from":"PAUSED","to":"ACTIVE"}'::jsonb
     from (${CONTRACTS}) x where x.i % 22 = 0 and x.i % 5 <> 0
     union all
     select $1::bigint, x.id, 'billing_failed', x.created + interval '1 month' + interval '1 hour', 'billing', '{}'::jsonb
     from (${CONTRACTS}) x where x.i % 7 = 0 and x.n > 1`,
    args,
  )
  await db.query(
    `insert into orders (shop_id, id, name, contract_id, customer_id, total_amount, currency_code, test, created_at, cancelled_at)
     select $1::bigint, 1000000000000 + x.i * 64 + k, '#' || (x.i * 64 + k), x.id, 700000000 + x.i,
       case when x.i % 50 = 0 then 19.80 else 1980 + (x.i % 5) * 500 end,
       case when x.i % 50 = 0 then 'USD' else 'JPY' end, false, x.created + k * interval '1 month',
       case when (x.i + k) % 97 = 0 then x.created + k * interval '1 month' + interval '1 day' end
     from (${CONTRACTS}) x, generate_series(0, x.n - 1) k`,
    args,
  )
  await db.query(
    `insert into billing_attempts (shop_id, id, contract_id, idempotency_key, created_at, ready, order_id)
     select $1::bigint, 2000000000000 + x.i * 64 + k, x.id, 'bench-' || x.i || '-' || k, x.created + k * interval '1 month',
       true, 1000000000000 + x.i * 64 + k
     from (${CONTRACTS}) x, generate_series(1, x.n - 1) k`,
    args,
  )
  await db.query(
    `insert into contract_attributions (shop_id, contract_id, customer_id, source, medium, campaign, touched_at)
     select $1::bigint, 9000000000 + i, 700000000 + i, (array['instagram', 'google', 'line'])[1 + i % 3],
       (array['social', 'cpc', 'message'])[1 + i % 3], 'bench', now()
     from generate_series($2::int, $3::int) i where i % 5 < 3`,
    args,
  )
}

/** How many history rows the shop has. */
export async function historyRows(db: pg.Pool, shopId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `select ((select count(*) from contract_events where shop_id = $1) + (select count(*) from orders where shop_id = $1)
       + (select count(*) from billing_attempts where shop_id = $1))::text as n`,
    [shopId],
  )
  return Number(rows[0]!.n)
}
