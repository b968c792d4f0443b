// `--only shipping`: 出荷予定 on a 100,000-contract shop (issue 25). Seeds its own shop in the
// bench database: every contract ACTIVE, next billings spread over the coming 30 days (monthly,
// every two months and weekly plans), a prefecture, a time slot on two in three, one to two
// lines with SKUs, and SKU変換 by 定期回数 (so the orders are counted, the slow path). Measures
// GET /shipping-forecast?days=31 and ?days=7 through a running server (p50/p95 of sequential
// requests after a warm-up) against ≤ 200 ms, and the CSV of 31 days (one row per order, the
// generator the route streams, Shift_JIS) for its wall time and the RSS growth of this process
// (sampled every 5 ms) against ≤ 5 s and ≤ 64 MB.
import type pg from 'pg'
import { putOrderContentText } from '../apps/server/src/billing/order-content.ts'
import { shippingCsv } from '../apps/server/src/features/shipping/csv.ts'
import { findInstalledShop } from '../apps/server/src/platform/shops-repo.ts'
import { BENCH_APP_PLAN, BENCH_SECRET } from './seed-mirror.ts'

export const SHIPPING_SHOP = 'bench-shipping.myshopify.com'
export const SHIPPING_TARGETS = { forecastP95Ms: 200, csvWallMs: 5_000, csvRssGrowthMB: 64 }
const CONTRACTS = 100_000
const SEED = 'shipping-v1'

const SLOTS = ['午前中', '14時〜16時', '19時〜21時']

export async function seedShippingShop(db: pg.Pool, log: (line: string) => void): Promise<string> {
  const { hashSecret } = await import('../apps/server/src/http/auth.ts')
  const { REQUIRED_SCOPES } = await import('../apps/server/src/platform/scopes.ts')
  await db.query(`create table if not exists bench_meta (key text primary key, value text not null)`)
  const day = new Date().toISOString().slice(0, 10)
  const wanted = `${SEED}:${day}`
  const { rows } = await db.query<{ value: string }>(`select value from bench_meta where key = 'shipping'`)
  const existing = await findInstalledShop(db, SHIPPING_SHOP)
  if (existing && rows[0]?.value === wanted) return existing.id
  log(`seeding ${SHIPPING_SHOP}: ${CONTRACTS.toLocaleString()} ACTIVE contracts billing in the next 30 days…`)
  await db.query('delete from shops where domain = $1', [SHIPPING_SHOP])
  const { rows: shopRows } = await db.query<{ id: string }>(
    `insert into shops (domain, name, secret_hash, access_token, scopes, app_plan, shopify_plan)
     values ($1, '出荷予定ベンチ店', $2, 'shpat_bench', $3, $4, 'Shopify Plus') returning id`,
    [SHIPPING_SHOP, hashSecret(BENCH_SECRET), [...REQUIRED_SCOPES], JSON.stringify(BENCH_APP_PLAN)],
  )
  const shopId = shopRows[0]!.id
  await db.query(
    `insert into subscription_contracts (shop_id, id, status, customer_id, next_billing_date, currency_code,
       interval, interval_count, billing_policy, created_at, updated_at, customer_display_name,
       custom_attributes, delivery_method)
     select $1, 20000000000 + g, 'ACTIVE', 7100000000000 + g,
       date_trunc('day', now()) + interval '1 hour' + ((g * 7919 % 43200) * interval '1 minute'),
       'JPY', case when g % 20 = 0 then 'WEEK' else 'MONTH' end, case when g % 10 = 1 then 2 else 1 end,
       jsonb_build_object('interval', case when g % 20 = 0 then 'WEEK' else 'MONTH' end,
         'intervalCount', case when g % 10 = 1 then 2 else 1 end, 'anchors', '[]'::jsonb,
         'maxCycles', case when g % 50 = 7 then 6 end),
       now() - ((g % 400) * interval '1 day'), now(), '山田 太郎' || g,
       case when g % 3 = 0 then '[]'::jsonb
            else jsonb_build_array(jsonb_build_object('key', '配送時間帯', 'value', ($3::text[])[1 + g % 3])) end,
       jsonb_build_object('address', jsonb_build_object('firstName', '太郎', 'lastName', '山田',
         'zip', lpad((g % 10000000)::text, 7, '0'), 'provinceCode', 'JP-' || lpad((1 + g % 47)::text, 2, '0'),
         'city', '千代田区', 'address1', '丸の内1-' || (g % 100), 'address2', 'テイキビル' || (g % 30) || '階',
         'phone', '+8190' || lpad((g * 7919 % 100000000)::text, 8, '0')))
     from generate_series(1, $2::int) g`,
    [shopId, CONTRACTS, SLOTS],
  )
  await db.query(
    `insert into subscription_lines (shop_id, contract_id, id, product_id, variant_id, title, sku, quantity, current_price, position)
     select $1, 20000000000 + g, 'gid://shopify/SubscriptionLine/s' || g || '-' || k, 900 + k, 9000 + (g + k) % 40,
       'グラノーラ ' || ((g + k) % 40), 'SKU-' || lpad(((g + k) % 40)::text, 3, '0'), 1 + (g % 3), 1980, k
     from generate_series(1, $2::int) g, generate_series(0, (g % 2)::int) k`,
    [shopId, CONTRACTS],
  )
  await putOrderContentText(db, shopId, {
    noteAttribute: '[]',
    skuConversions: JSON.stringify([{ from: 'SKU-001', to: 'SKU-001-FIRST+LEAFLET', cycles: '1' }]),
  })
  await db.query('analyze subscription_contracts; analyze subscription_lines')
  await db.query(
    `insert into bench_meta (key, value) values ('shipping', $1) on conflict (key) do update set value = excluded.value`,
    [wanted],
  )
  return shopId
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!

async function timeRequests(port: number, days: number, n: number) {
  const url = `http://127.0.0.1:${port}/app-admin/shipping-forecast?days=${days}&shop=${SHIPPING_SHOP}&secret=${BENCH_SECRET}`
  let orders = 0
  for (let i = 0; i < 3; i++) await (await fetch(url)).json()
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    const res = await fetch(url)
    const body = (await res.json()) as { orders: number }
    if (res.status !== 200)
      throw new Error(`shipping-forecast answered ${res.status}: ${JSON.stringify(body)}`)
    times.push(performance.now() - started)
    orders = body.orders
  }
  times.sort((a, b) => a - b)
  return { orders, p50Ms: Math.round(pct(times, 0.5)), p95Ms: Math.round(pct(times, 0.95)), requests: n }
}

async function timeCsv(db: pg.Pool) {
  const shop = (await findInstalledShop(db, SHIPPING_SHOP))!
  global.gc?.()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  const started = performance.now()
  let bytes = 0
  let rows = -1 // the header
  for await (const chunk of shippingCsv(db, shop, { days: 31, encoding: 'shift_jis', layout: 'standard' })) {
    bytes += chunk.length
    for (const b of chunk) if (b === 0x0a) rows++
  }
  const wallMs = Math.round(performance.now() - started)
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  const MB = 1024 * 1024
  return {
    rows,
    fileMB: Math.round((bytes / MB) * 10) / 10,
    wallMs,
    rssBeforeMB: Math.round(before / MB),
    rssGrowthMB: Math.round(((peak - before) / MB) * 10) / 10,
  }
}

export async function benchShipping(opts: {
  pool: pg.Pool
  port: number
  log: (line: string) => void
}): Promise<Record<string, unknown>> {
  const { pool, port, log } = opts
  await seedShippingShop(pool, log)
  const month = await timeRequests(port, 31, 40)
  log(
    `shipping forecast 31 days (${CONTRACTS.toLocaleString()} contracts, ${month.orders.toLocaleString()} orders): ` +
      `p50 ${month.p50Ms} ms, p95 ${month.p95Ms} ms (≤ ${SHIPPING_TARGETS.forecastP95Ms})`,
  )
  const week = await timeRequests(port, 7, 40)
  log(
    `shipping forecast 7 days (${week.orders.toLocaleString()} orders): p50 ${week.p50Ms} ms, p95 ${week.p95Ms} ms`,
  )
  const csv = await timeCsv(pool)
  log(
    `shipping CSV 31 days, Shift_JIS: ${csv.rows.toLocaleString()} rows, ${csv.fileMB} MB in ${csv.wallMs} ms ` +
      `(≤ ${SHIPPING_TARGETS.csvWallMs}); RSS ${csv.rssBeforeMB} MB before, growth ${csv.rssGrowthMB} MB (≤ ${SHIPPING_TARGETS.csvRssGrowthMB})`,
  )
  return { contracts: CONTRACTS, forecast31: month, forecast7: week, csv, targets: SHIPPING_TARGETS }
}
