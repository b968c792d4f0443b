import type pg from 'pg'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { REQUIRED_SCOPES } from '../apps/server/src/platform/scopes.ts'

/**
 * The app plan every bench shop holds: the catalogue's top plan, so no feature a section measures
 * is refused by the plan gate (ADR 0029).
 */
export const BENCH_APP_PLAN = {
  id: '29000000013',
  name: 'Teiki プロ',
  status: 'ACTIVE',
  price: { amount: '29800.0', currencyCode: 'JPY' },
  trialDays: 14,
  currentPeriodEnd: null,
  test: false,
}

export const BENCH_SECRET = 'bench-secret-0001'
export const BENCH_SEED_VERSION = 'mirror-v2'

export type BenchShape = { shops: number; contractsPerShop: number; variantsPerShop: number }

const FAMILY = [
  '佐藤',
  '鈴木',
  '高橋',
  '田中',
  '伊藤',
  '渡辺',
  '山本',
  '中村',
  '小林',
  '加藤',
  '吉田',
  '山田',
  '佐々木',
  '山口',
  '松本',
  '井上',
  '木村',
  '林',
  '斎藤',
  '清水',
]
const GIVEN = [
  '太郎',
  '花子',
  '翔',
  '陽菜',
  '蓮',
  '結衣',
  '大翔',
  '美咲',
  '悠真',
  '葵',
  '湊',
  '凛',
  '健',
  '真央',
  '拓海',
  'さくら',
]

/** Every scope the app asks for, so the page opens without the update modal. */
const BENCH_SCOPES = [...REQUIRED_SCOPES]

export function benchShopDomain(index: number): string {
  return `bench-${index}.myshopify.com`
}

/**
 * Fills the mirror directly with SQL (generate_series): the search benchmark measures the
 * read path, and a million contracts through the emulator and the Admin API would take an
 * hour of rate-limited sync. Deterministic: every value is a function of the row number.
 * Ids: contract 10_000_000_000 + n, customer 7_000_000_000_000 + n, variant 44_000_000_000_000 + k.
 */
export async function seedBenchMirror(
  db: pg.Pool,
  shape: BenchShape,
  log: (line: string) => void,
): Promise<void> {
  await db.query(`create table if not exists bench_meta (key text primary key, value text not null)`)
  const wanted = `${BENCH_SEED_VERSION}:${shape.shops}x${shape.contractsPerShop}x${shape.variantsPerShop}`
  const { rows } = await db.query<{ value: string }>(`select value from bench_meta where key = 'seed'`)
  // Scopes follow the app's: a database seeded before a new scope gets it without a reseed.
  await db.query(`update shops set scopes = $1 where domain like 'bench-%.myshopify.com'`, [BENCH_SCOPES])
  if (rows[0]?.value === wanted) {
    log(`bench data already present (${wanted})`)
    return
  }
  log(`seeding ${shape.shops} shops x ${shape.contractsPerShop.toLocaleString()} contracts…`)
  // The bench database holds only bench shops: truncate (no per-row cascades or triggers).
  await db.query('truncate shops cascade')
  await db.query(`delete from bench_meta where key = 'seed'`)
  for (let s = 0; s < shape.shops; s++) {
    const started = Date.now()
    const { rows: shopRows } = await db.query<{ id: string }>(
      `insert into shops (domain, name, secret_hash, access_token, scopes, app_plan, shopify_plan)
       values ($1, $2, $3, 'shpat_bench', $4, $5, 'Shopify Plus') returning id`,
      [
        benchShopDomain(s),
        `ベンチマーク店 ${s}`,
        hashSecret(BENCH_SECRET),
        BENCH_SCOPES,
        JSON.stringify(BENCH_APP_PLAN),
      ],
    )
    const shopId = shopRows[0]!.id
    const base = s * shape.contractsPerShop
    const n = shape.contractsPerShop
    await db.query(
      `insert into customers (shop_id, id, first_name, last_name, display_name, name_key, email, phone, phone_rev, created_at, updated_at)
       select $1, 7000000000000 + g, gv, fm, fm || ' ' || gv, lower(fm || gv),
         'user' || g || '@example.jp',
         '+8190' || lpad((g * 7919 % 100000000)::text, 8, '0'),
         reverse('8190' || lpad((g * 7919 % 100000000)::text, 8, '0')),
         now() - interval '540 days', now() - interval '1 day'
       from generate_series($2::bigint, $3::bigint) g,
         lateral (select ($4::text[])[1 + (g * 31 % array_length($4::text[], 1))] as fm,
                         ($5::text[])[1 + (g * 17 % array_length($5::text[], 1))] as gv) names`,
      [shopId, base + 1, base + n, FAMILY, GIVEN],
    )
    await db.query(
      `insert into subscription_contracts (shop_id, id, status, customer_id, next_billing_date, currency_code,
         interval, interval_count, created_at, updated_at, customer_display_name)
       select $1, 10000000000 + g,
         case when g % 20 < 14 then 'ACTIVE' when g % 20 < 16 then 'CANCELLED' when g % 20 < 18 then 'PAUSED'
              when g % 20 = 18 then 'FAILED' else 'EXPIRED' end,
         7000000000000 + g,
         timestamptz '2026-11-22 01:00:00+00' + ((g * 104729 % 86400) * interval '1 minute'),
         'JPY', 'MONTH', 1 + (g % 2), now() - ((g % 540) * interval '1 day'), now(),
         fm || ' ' || gv
       from generate_series($2::bigint, $3::bigint) g,
         lateral (select ($4::text[])[1 + (g * 31 % array_length($4::text[], 1))] as fm,
                         ($5::text[])[1 + (g * 17 % array_length($5::text[], 1))] as gv) names`,
      [shopId, base + 1, base + n, FAMILY, GIVEN],
    )
    await db.query(
      `insert into subscription_lines (shop_id, contract_id, id, product_id, variant_id, title, quantity, current_price, position)
       select $1, 10000000000 + g, 'gid://shopify/SubscriptionLine/' || g || '-' || k,
         8000000000000 + (g * 13 + k) % ($4 / 4), 44000000000000 + (g * 13 + k * 7) % $4,
         'ベンチ商品', 1 + (g % 3), 1980, k
       from generate_series($2::bigint, $3::bigint) g, generate_series(0, (g % 2)::int) k`,
      [shopId, base + 1, base + n, shape.variantsPerShop],
    )
    log(`  shop ${s}: ${n.toLocaleString()} contracts in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
  await db.query('vacuum analyze')
  await db.query(`insert into bench_meta (key, value) values ('seed', $1)`, [wanted])
}
