// `npm run seed -- --shops 10 --contracts 100000 [--data-dir .data-seed] [--seed 1] [--prefix bench-]
//   [--now 2026-11-22] [--max-saved-contracts 20000]`
// `npm run seed -- --analytics [--database-url postgres://…]`: the large analytics shop instead
//   (100,000 contracts, ~5.2M history rows, written into PostgreSQL: scripts/seed-analytics.ts).
//
// Writes the emulator state of N generated shops (`{prefix}{i}.myshopify.com`) into
// `{data-dir}/emulator-state.json`, in the emulator's own format, so an emulator started with
// that data dir (`createEmulator({ dataDir })`, or the CLI's --data-dir) serves them. The same
// arguments give the same state: every shop comes from the emulator's deterministic generator
// (seed, domain, `now`, counts). `now` defaults to today 00:00 UTC and is printed; pass --now
// to pin it across days. Shops above --max-saved-contracts are stored as their generation
// recipe (the emulator regenerates them when it loads the file, ~4 s per 100k contracts);
// smaller ones are stored whole. Shops are generated one at a time, so 10 × 100k fits in
// memory. The plan is the generator's (Basic: 100 points/s, bucket 2,000).
import { statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { generateShop, type ShopState } from '@teiki/shopify-emulator'
import { STATE_FILE, saveState } from '../packages/shopify-emulator/src/persistence.ts'

const { values } = parseArgs({
  options: {
    shops: { type: 'string', default: '10' },
    contracts: { type: 'string', default: '100000' },
    customers: { type: 'string' },
    'data-dir': { type: 'string', default: '.data-seed' },
    seed: { type: 'string', default: '1' },
    prefix: { type: 'string', default: 'bench-' },
    now: { type: 'string' },
    'max-saved-contracts': { type: 'string', default: '20000' },
    analytics: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
})
if (values.analytics) {
  const { seedAnalyticsShop } = await import('./seed-analytics.ts')
  await seedAnalyticsShop(values['database-url'] ?? process.env.DATABASE_URL)
  process.exit(0)
}

const int = (name: string, value: string | undefined, min: number): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < min) {
    console.error(`[seed] --${name} must be an integer >= ${min} (got ${value})`)
    process.exit(2)
  }
  return n
}
const shops = int('shops', values.shops, 1)!
const contracts = int('contracts', values.contracts, 0)!
const customers = int('customers', values.customers, 0)
const seed = int('seed', values.seed, 0)!
const maxSaved = int('max-saved-contracts', values['max-saved-contracts'], 0)!
const today = new Date()
const now = values.now
  ? new Date(values.now)
  : new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()))
if (Number.isNaN(now.getTime())) {
  console.error(`[seed] --now is not a date: ${values.now}`)
  process.exit(2)
}
const dataDir = resolve(values['data-dir'])
const started = Date.now()

console.log(
  `[seed] ${shops} shop(s) × ${contracts.toLocaleString()} contracts, seed ${seed}, now ${now.toISOString()} → ${dataDir}`,
)

type Row = { domain: string; stored: 'whole' | 'recipe'; summary: string; token: string }
const rows: Row[] = []

/** Generates shops lazily: saveState keeps a recipe for big ones, so each is dropped after use. */
function* generated(): Generator<ShopState> {
  for (let i = 0; i < shops; i++) {
    const t0 = Date.now()
    const domain = `${values.prefix}${i}.myshopify.com`
    const shop = generateShop({ domain, seed, now, contracts, customers })
    const byStatus: Record<string, number> = {}
    let lines = 0
    for (const c of shop.contracts) {
      byStatus[c.status] = (byStatus[c.status] ?? 0) + 1
      lines += c.lines.length
    }
    const statuses = Object.entries(byStatus)
      .sort()
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')
    rows.push({
      domain,
      stored: shop.contracts.length > maxSaved ? 'recipe' : 'whole',
      token: shop.installation.accessToken,
      summary:
        `${shop.contracts.length} contracts (${statuses}), ${lines} lines, ${shop.customers.length} customers, ` +
        `${shop.orders.length} orders, ${shop.products.length} products, ${shop.sellingPlanGroups.length} groups`,
    })
    console.log(`[seed] ${domain}: ${rows.at(-1)!.summary} (${Date.now() - t0} ms)`)
    yield shop
  }
}

saveState(dataDir, generated(), maxSaved)

const file = join(dataDir, STATE_FILE)
console.log(
  `\n[seed] wrote ${file} (${(statSync(file).size / 1e6).toFixed(2)} MB) in ${Date.now() - started} ms`,
)
for (const row of rows)
  console.log(`  ${row.domain.padEnd(32)} stored ${row.stored.padEnd(6)} token ${row.token}`)
console.log(
  `\n[seed] serve it: npx tsx packages/shopify-emulator/src/cli.ts --data-dir ${values['data-dir']}` +
    ' (or createEmulator({ dataDir }))',
)
