// `--only export`: the CSV export of the 100k-contract bench shop (shop 0 of the seeded
// mirror), in both encodings, each in a fresh child process (export-child.ts) running the same
// `runExport` the export job runs. Measures wall time and the export's peak RSS in that process
// (VmHWM, its mark reset after a warm-up and a GC, so it is the export's alone; a difference of
// two samples in a process that already held more memory read 0 MB), the growth over the RSS
// before the export, and the V8 heap's high-water mark, against the targets: ≤ 5 s and
// ≤ 64 MB of growth for 100k contracts.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { findInstalledShop } from '../apps/server/src/platform/shops-repo.ts'
import { benchShopDomain } from './seed-mirror.ts'
import { ROOT } from './server-process.ts'
import { lineOf } from './sync.ts'

export const EXPORT_TARGETS = { wallMs: 5_000, peakRssGrowthMB: 64 }

type ChildResult = {
  status: string
  error: string | null
  rows: number
  bytes: number
  wallMs: number
  rssBeforeMB: number
  peakRssMB: number
  peakReset: boolean
  processMaxRssMB: number
  heapBeforeMB: number
  heapPeakMB: number
}

const MB = 1024 * 1024

export async function benchExport(opts: {
  pool: pg.Pool
  databaseUrl: string
  log: (line: string) => void
}): Promise<Record<string, unknown>> {
  const { pool, log } = opts
  const shop = await findInstalledShop(pool, benchShopDomain(0))
  if (!shop) throw new Error(`${benchShopDomain(0)} is not seeded`)
  await ensureOrders(pool, shop.id, log)
  const contracts = (
    await pool.query<{ n: number }>(
      'select count(*)::int as n from subscription_contracts where shop_id = $1',
      [shop.id],
    )
  ).rows[0]!.n

  const dataDir = await mkdtemp(join(tmpdir(), 'teiki-bench-export-'))
  try {
    const runs: Record<string, unknown> = {}
    for (const encoding of ['utf-8', 'shift_jis']) {
      const r = await exportInChild({ databaseUrl: opts.databaseUrl, shop: shop.domain, encoding, dataDir })
      if (r.status !== 'done') throw new Error(`export ${encoding} ended ${r.status}: ${r.error}`)
      if (r.rows !== contracts) throw new Error(`export ${encoding} wrote ${r.rows} of ${contracts}`)
      const growthMB = Math.round((r.peakRssMB - r.rssBeforeMB) * 10) / 10
      runs[encoding] = {
        rows: r.rows,
        fileMB: Math.round((r.bytes / MB) * 10) / 10,
        wallMs: r.wallMs,
        rowsPerSecond: Math.round(r.rows / (r.wallMs / 1000)),
        rssBeforeMB: r.rssBeforeMB,
        peakRssMB: r.peakRssMB,
        peakRssGrowthMB: growthMB,
        peakMarkReset: r.peakReset,
        processMaxRssMB: r.processMaxRssMB,
        heapBeforeMB: r.heapBeforeMB,
        heapPeakMB: r.heapPeakMB,
      }
      log(
        `export ${encoding.padEnd(9)} ${r.rows.toLocaleString()} rows, ${(r.bytes / MB).toFixed(1)} MB: ` +
          `${r.wallMs} ms (≤ ${EXPORT_TARGETS.wallMs}); fresh process: RSS ${r.rssBeforeMB} MB before, peak ${r.peakRssMB} MB ` +
          `during the export = growth ${growthMB} MB (≤ ${EXPORT_TARGETS.peakRssGrowthMB}); ` +
          `V8 heap ${r.heapBeforeMB} → peak ${r.heapPeakMB} MB`,
      )
    }
    return {
      shop: benchShopDomain(0),
      contracts,
      process: 'fresh child per encoding',
      runs,
      targets: EXPORT_TARGETS,
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

async function exportInChild(o: {
  databaseUrl: string
  shop: string
  encoding: string
  dataDir: string
}): Promise<ChildResult> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', join(ROOT, 'bench/export-child.ts')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        BENCH_EXPORT_DATABASE_URL: o.databaseUrl,
        BENCH_EXPORT_SHOP: o.shop,
        BENCH_EXPORT_ENCODING: o.encoding,
        BENCH_EXPORT_DIR: o.dataDir,
      },
    },
  )
  const line = await lineOf(child, 'RESULT ', 300_000)
  return JSON.parse(line) as ChildResult
}

/**
 * The seeded mirror has no orders; the export's purchase count reads them per contract, so
 * shop 0 gets 0-6 orders per contract (about 300k, some cancelled) once, for a fair
 * measurement. Idempotent: a reseed (which truncates the shops) brings it back here.
 */
async function ensureOrders(pool: pg.Pool, shopId: string, log: (line: string) => void): Promise<void> {
  const { rows } = await pool.query('select 1 from orders where shop_id = $1 limit 1', [shopId])
  if (rows.length > 0) return
  log('export: adding orders to the bench shop (purchase counts)…')
  await pool.query(
    `insert into orders (shop_id, id, name, contract_id, customer_id, total_amount, currency_code, created_at, cancelled_at)
     select $1, 5000000000000 + (c.id - 10000000000) * 10 + k, '#' || ((c.id - 10000000000) * 10 + k),
       c.id, c.customer_id, 1980, 'JPY', c.created_at + k * interval '30 days',
       case when k = 3 then c.created_at + k * interval '30 days' + interval '1 hour' end
     from subscription_contracts c, generate_series(1, (c.id % 7)::int) k
     where c.shop_id = $1`,
    [shopId],
  )
  // As the mirror seed does for its tables: hint bits and visibility map set, statistics fresh.
  await pool.query('vacuum analyze orders')
}
