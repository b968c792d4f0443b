// One full sync in its own process (so its peak RSS is the sync's): the real client over HTTP
// into the database at BENCH_SYNC_DATABASE_URL. Prints `RESULT {json}` at the end.

import { createPool } from '../apps/server/src/db/pool.ts'
import { createAdminClient } from '../apps/server/src/platform/admin-client.ts'
import { findInstalledShop, upsertShopInstall } from '../apps/server/src/platform/shops-repo.ts'
import { fullSync } from '../apps/server/src/sync/full-sync.ts'

const env = (name: string) => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}
const domain = env('BENCH_SYNC_DOMAIN')
const accessToken = env('BENCH_SYNC_TOKEN')
const pool = createPool(env('BENCH_SYNC_DATABASE_URL'), 4, { genericPlans: true })
await upsertShopInstall(pool, { domain, accessToken, scopes: [] })
const shop = (await findInstalledShop(pool, domain))!
const client = createAdminClient({ shop: domain, accessToken, origin: env('BENCH_SYNC_EMULATOR_URL') })
const started = performance.now()
let lastLog = 0
const summary = await fullSync(pool, client, shop, {
  onProgress: (s) => {
    if (Date.now() - lastLog < 10_000) return
    lastLog = Date.now()
    console.log(
      `PROGRESS ${s.contracts} contracts, ${s.customers} customers after ${Math.round(s.ms / 1000)} s`,
    )
  },
})
const wallMs = performance.now() - started
const counts = await pool.query<{ contracts: number; lines: number; customers: number; events: number }>(
  `select (select count(*)::int from subscription_contracts where shop_id = $1) as contracts,
     (select count(*)::int from subscription_lines where shop_id = $1) as lines,
     (select count(*)::int from customers where shop_id = $1) as customers,
     (select count(*)::int from contract_events where shop_id = $1) as events`,
  [shop.id],
)
await pool.end()
console.log(
  `RESULT ${JSON.stringify({
    wallMs,
    summary,
    stats: client.stats,
    mirror: counts.rows[0],
    // resourceUsage().maxRSS is in kilobytes: the process's peak resident set.
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  })}`,
)
