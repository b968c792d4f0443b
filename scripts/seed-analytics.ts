// `npm run seed -- --analytics [--database-url postgres://…]` (issue 14 item 6): the analytics
// benchmark shop — 100,000 contracts started over 3 years and ~5.2M history rows (events,
// orders, billing attempts), written through the rollup triggers (bench/analytics-seed.ts,
// the same data `npm run bench -- --only analytics` measures) — into a PostgreSQL database,
// migrated first. Kept when already there (bench_meta records the seed); about 4 minutes
// otherwise. The database: --database-url, else DATABASE_URL.
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { ANALYTICS_SECRET, ANALYTICS_SHOP, historyRows, seedAnalytics } from '../bench/analytics-seed.ts'

export async function seedAnalyticsShop(url: string | undefined): Promise<void> {
  if (!url) {
    console.error('[seed] --analytics writes into PostgreSQL: pass --database-url or set DATABASE_URL')
    process.exit(2)
  }
  const pool = createPool(url, 4)
  try {
    const started = Date.now()
    await migrate(pool)
    const shopId = await seedAnalytics(pool, (line) => console.log(`[seed] ${line}`))
    const rows = await historyRows(pool, shopId)
    console.log(
      `[seed] ${ANALYTICS_SHOP}: 100,000 contracts, ${rows.toLocaleString()} history rows (${Math.round((Date.now() - started) / 1000)} s)`,
    )
    console.log(
      `[seed] open it: DATABASE_URL=${url} npm start, then http://127.0.0.1:3000/?shop=${ANALYTICS_SHOP}&secret=${ANALYTICS_SECRET} (分析, 継続率)`,
    )
  } finally {
    await pool.end()
  }
}
