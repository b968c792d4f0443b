// `npm run bench`: search API latency and throughput over a 1M-contract mirror, the web
// app's initial load size, the list page's LCP (on its rendered rows) and CLS, the initial sync
// of a 100k-contract shop, a burst of 500 mutations against the rate limit, the CSV export of
// the 100k-contract shop (in a fresh process: its peak RSS), the contract detail page's LCP,
// the day's billing run as production runs it on a Standard shop (300 due) and a Plus shop
// (5,000 due), a merchant's detail pages and edits during a billing run on a Standard shop,
// the storefront block's JS size and CLS, and the 販売プラン list of a 1,000-group shop
// (`plans`) (about 45 minutes in all; `--only search,bundle` picks sections). Prints a table
// and merges the sections run into bench/results/latest.json. Targets come from the issues; the
// script reports, it never fails a build on timing (tests do not assert timings).
// ARCHITECTURE.md (Benchmarks) says what each section measures and how.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { benchAnalytics } from './analytics.ts'
import { benchBatch } from './batch.ts'
import { benchBilling } from './billing.ts'
import { initialLoadSizes } from './bundle-size.ts'
import { benchBurst } from './burst.ts'
import { benchCdp } from './cdp.ts'
import { benchDetailVitals } from './detail-vitals.ts'
import { benchExport } from './export.ts'
import { benchIngest } from './ingest.ts'
import { runLoad } from './load.ts'
import { benchMerchant } from './merchant.ts'
import { benchMyPage } from './my-page.ts'
import { currentProvenance, flagOf, SECTION_CODE, staleSections } from './provenance.ts'
import { BENCH_SECRET, benchShopDomain, seedBenchMirror } from './seed-mirror.ts'
import { benchSellingPlans } from './selling-plans.ts'
import { ROOT, startServer } from './server-process.ts'
import { benchShipping } from './shipping.ts'
import { benchShopOps } from './shopops.ts'
import { benchStorefront } from './storefront.ts'
import { benchSync } from './sync.ts'
import { measureVitals } from './web-vitals.ts'

const { values: args } = parseArgs({
  options: {
    only: {
      type: 'string',
      default:
        'search,bundle,vitals,detail,sync,burst,export,shipping,mypage,billing,merchant,storefront,plans,cdp,batch,shopops,analytics,ingest',
    },
    shops: { type: 'string', default: '10' },
    contracts: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    'sync-contracts': { type: 'string', default: '100000' },
    'burst-mutations': { type: 'string', default: '500' },
    'billing-due': { type: 'string', default: '5000' },
    'billing-standard-due': { type: 'string', default: '300' },
    'batch-contracts': { type: 'string', default: '10000' },
    'merchant-seconds': { type: 'string', default: '60' },
    'merchant-think-ms': { type: 'string', default: '1000' },
    'ingest-seconds': { type: 'string', default: '60' },
    'ingest-profile': { type: 'string' },
  },
})
const only = new Set(args.only.split(','))
const shape = { shops: Number(args.shops), contractsPerShop: Number(args.contracts), variantsPerShop: 400 }
const seconds = Number(args.seconds)
const connections = Number(args.connections)
const log = (line: string) => console.log(`[bench] ${line}`)

const at = new Date().toISOString()
// What is measured is the code as it is now: its commit, and whether it had uncommitted changes.
const provenance = Object.fromEntries(Object.keys(SECTION_CODE).map((s) => [s, currentProvenance(at, s)]))
const results: Record<string, unknown> = {
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
}

const baseUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
// Engineers sharing one PostgreSQL each keep their own bench database.
const benchDbName = process.env.BENCH_DB_NAME ?? 'teiki_bench'

if (only.has('search') || only.has('bundle') || only.has('vitals')) {
  // `at` and `shape` describe the search/bundle/vitals run; sync and burst carry their own `at`.
  Object.assign(results, { at, shape })
  await benchServerSections()
}
// Rate-limit sections: their own emulator and (for sync) a fresh database each.
if (only.has('sync'))
  results.sync = { at, ...(await benchSync({ baseUrl, contracts: Number(args['sync-contracts']), log })) }
if (only.has('storefront')) results.storefront = { at, ...(await benchStorefront({ log })) }
if (only.has('detail')) results.detailPageVitals = { at, ...(await benchDetailVitals({ log })) }
if (only.has('billing'))
  results.billing = {
    at,
    ...(await benchBilling({
      baseUrl,
      plusDue: Number(args['billing-due']),
      standardDue: Number(args['billing-standard-due']),
      log,
    })),
  }
if (only.has('batch'))
  results.batch = { at, ...(await benchBatch({ baseUrl, contracts: Number(args['batch-contracts']), log })) }
if (only.has('merchant')) {
  results.merchant = {
    at,
    ...(await benchMerchant({
      baseUrl,
      due: Number(args['billing-due']),
      seconds: Number(args['merchant-seconds']),
      thinkMs: Number(args['merchant-think-ms']),
      log,
    })),
  }
}
// The 販売プラン list of a 1,000-group shop, on its own small bench database.
if (only.has('plans')) {
  results.sellingPlans = {
    at,
    ...(await benchSellingPlans({
      databaseUrl: await ensureDatabase(baseUrl, `${benchDbName}_plans`),
      seconds,
      connections,
      log,
    })),
  }
}
// Customer segments and LTV (issue 15): 1,000,000 customers, the measured shop 100,000.
if (only.has('cdp')) {
  results.cdp = {
    at,
    ...(await benchCdp({
      databaseUrl: await ensureDatabase(baseUrl, `${benchDbName}_cdp`),
      seconds,
      connections: 8,
      log,
    })),
  }
}
// Issue 16: template rendering, mail over SMTP through the outbox, the shop-operation screens' API.
if (only.has('shopops')) {
  results.shopops = {
    at,
    ...(await benchShopOps({
      databaseUrl: await ensureDatabase(baseUrl, `${benchDbName}_shopops`),
      seconds,
      log,
    })),
  }
}
if (only.has('analytics')) {
  results.analytics = {
    at,
    ...(await benchAnalytics({
      databaseUrl: await ensureDatabase(baseUrl, `${benchDbName}_analytics`),
      seconds,
      connections,
      log,
    })),
  }
}
// The pixel's ingest (issue 14), on its own small database: only the shop and its pixel key.
if (only.has('ingest')) {
  results.ingest = {
    at,
    ...(await benchIngest({
      databaseUrl: await ensureDatabase(baseUrl, `${benchDbName}_ingest`),
      connections,
      seconds: Number(args['ingest-seconds']),
      ...(args['ingest-profile'] ? { profileDir: args['ingest-profile'] } : {}),
      log,
    })),
  }
}
if (only.has('burst'))
  results.burst = { at, ...(await benchBurst({ mutations: Number(args['burst-mutations']), log })) }
// The CSV export runs in a fresh child process per encoding (runExport, as the job does) on the seeded bench mirror.
if (only.has('export')) {
  const databaseUrl = await ensureDatabase(baseUrl, benchDbName)
  const pool = createPool(databaseUrl, 4)
  try {
    await migrate(pool)
    await seedBenchMirror(pool, shape, log)
    results.export = { at, ...(await benchExport({ pool, databaseUrl, log })) }
  } finally {
    await pool.end()
  }
}

// 出荷予定 (issue 25): its own 100k-contract shop in the bench database, through a running server.
if (only.has('shipping')) {
  const databaseUrl = await ensureDatabase(baseUrl, benchDbName)
  const pool = createPool(databaseUrl, 4)
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  })
  try {
    await migrate(pool)
    results.shipping = { at, ...(await benchShipping({ pool, port: server.port, log })) }
  } finally {
    await server.stop()
    await pool.end()
  }
}

// マイページ (issue 26): the subscriber's API and page on the shipping bench's 100k-contract shop.
if (only.has('mypage')) {
  const databaseUrl = await ensureDatabase(baseUrl, benchDbName)
  const pool = createPool(databaseUrl, 4)
  const secret = 'bench-client-secret'
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: secret,
  })
  try {
    await migrate(pool)
    results.myPage = { at, ...(await benchMyPage({ pool, port: server.port, secret, log })) }
  } finally {
    await server.stop()
    await pool.end()
  }
}

// Sections not run this time keep their last figures.
const latest = join(ROOT, 'bench/results/latest.json')
const previous = existsSync(latest)
  ? (JSON.parse(readFileSync(latest, 'utf8')) as Record<string, unknown>)
  : {}
for (const [section, figures] of Object.entries(results))
  if (provenance[section]) results[section] = { ...provenance[section], ...(figures as object) }
const merged = { ...previous, ...results }
mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
writeFileSync(latest, `${JSON.stringify(merged, null, 2)}\n`)
log('written to bench/results/latest.json')
for (const { section, why } of staleSections(merged))
  log(
    `WARNING ${section}: its figures may be out of date (${why}); run \`npm run bench -- --only ${flagOf(section)}\``,
  )

async function benchServerSections() {
  const benchUrl = await ensureDatabase(baseUrl, benchDbName)
  const pool = createPool(benchUrl, 4)
  await migrate(pool)

  if (only.has('search') || only.has('vitals')) await seedBenchMirror(pool, shape, log)

  if (only.has('bundle') || only.has('vitals')) {
    if (!existsSync(join(ROOT, 'apps/web/dist/index.html')) || only.has('bundle')) {
      log('building the web app…')
      const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'ignore' })
      if (build.status !== 0) throw new Error('web build failed')
    }
  }

  const server = await startServer({
    DATABASE_URL: benchUrl,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  })
  log(`server on port ${server.port}`)
  try {
    if (only.has('search')) results.search = await benchSearch(server.port)
    if (only.has('bundle')) {
      const sizes = initialLoadSizes(join(ROOT, 'apps/web/dist'))
      results.bundle = { ...sizes, targets: { jsGzipKB: 180, cssGzipKB: 60 } }
      log(`initial load: JS ${sizes.jsGzipKB} KB gzip (≤ 180), CSS ${sizes.cssGzipKB} KB gzip (≤ 60)`)
    }
    if (only.has('vitals')) {
      const url = `http://127.0.0.1:${server.port}/?shop=${benchShopDomain(0)}&secret=${BENCH_SECRET}`
      // LCP is taken on the rendered rows (the table's content), not on whatever the browser
      // picked: while the first page loads the table shows skeleton rows, larger than any row.
      const vitals = await measureVitals(url, {
        runs: 5,
        readySelector: '[data-testid="subscription-row"]',
        contentSelector: 'tbody tr[id^="subscription-"]',
      })
      results.listPageVitals = { ...vitals, targets: { contentLcpMs: 1000, cls: 0.02 } }
      log(
        `list page (100k-contract shop): LCP of the rendered rows median ${vitals.contentLcpMsMedian} ms, ` +
          `max ${vitals.contentLcpMsMax} ms (≤ 1000), on ${vitals.contentLcpElement}; ` +
          `the browser's LCP median ${vitals.lcpMsMedian} ms was ${vitals.lcpElement} ` +
          `(removed before the rows: ${(vitals.runs[0]?.removedBeforeReady as string[] | undefined)?.join(', ') || 'nothing'}); ` +
          `CLS median ${vitals.clsMedian} (≤ 0.02)`,
      )
    }
  } finally {
    await server.stop()
    await pool.end()
  }
}

async function benchSearch(port: number) {
  const auth = `shop=${benchShopDomain(0)}&secret=${BENCH_SECRET}`
  const n = shape.contractsPerShop
  // Deterministic pseudo-random rows of shop 0 (ids 1..n), different on every request.
  const pick = (i: number) => 1 + ((i * 2654435761) % n)
  const phoneOf = (g: number) => `090${String((g * 7919) % 100_000_000).padStart(8, '0')}`
  const day = (offset: number) => new Date(Date.UTC(2026, 10, 22 + offset)).toISOString().slice(0, 10)
  const kinds: Record<string, (i: number) => string> = {
    // The landing page: every contract of the shop, newest first, with its total (全N件).
    all: () => `/app-admin/subscriptions/search?${auth}`,
    email: (i) => `/app-admin/subscriptions/search?${auth}&customerQuery=user${pick(i)}%40example.jp`,
    phone: (i) => `/app-admin/subscriptions/search?${auth}&customerQuery=${phoneOf(pick(i))}`,
    contractId: (i) => `/app-admin/subscriptions/search?${auth}&contractId=${10_000_000_000 + pick(i)}`,
    variantId: (i) =>
      `/app-admin/subscriptions/search-variant-id?${auth}&variantId=${44_000_000_000_000 + (i % shape.variantsPerShop)}`,
    statusDateRange: (i) =>
      `/app-admin/subscriptions/search?${auth}&statuses=${['ACTIVE', 'FAILED', 'PAUSED,CANCELLED'][i % 3]}` +
      `&nextBillingDateFrom=${day(i % 30)}&nextBillingDateTo=${day((i % 30) + 7)}`,
  }
  // Each kind must find rows, or the latency would measure empty answers.
  for (const [kind, path] of Object.entries(kinds)) {
    const res = await fetch(`http://127.0.0.1:${port}${path(7)}`)
    const body = (await res.json()) as { subscriptions?: unknown[] }
    if (res.status !== 200 || !body.subscriptions?.length)
      throw new Error(`${kind} found nothing: ${JSON.stringify(body)}`)
  }
  const health = await runLoad({ port, connections, seconds, warmupSeconds: 2, nextPath: () => '/health' })
  log(`health: ${health.rps} req/s, p50 ${health.p50Ms} ms, p95 ${health.p95Ms} ms`)
  const perKind: Record<string, unknown> = {}
  for (const [kind, nextPath] of Object.entries(kinds)) {
    const r = await runLoad({ port, connections, seconds, warmupSeconds: 2, nextPath })
    const ratio = Math.round((r.rps / health.rps) * 100) / 100
    perKind[kind] = { ...r, throughputRatioToHealth: ratio }
    log(
      `${kind.padEnd(16)} p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms (≤ 15)  ${r.rps} req/s  ratio ${ratio} (≥ 0.3)  errors ${r.errors}`,
    )
  }
  return { connections, seconds, health, kinds: perKind, targets: { p95Ms: 15, throughputRatio: 0.3 } }
}

async function ensureDatabase(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  const exists = await admin.query('select 1 from pg_database where datname = $1', [name])
  if (exists.rowCount === 0) await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}
