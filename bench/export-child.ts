// One CSV export in a fresh process, so its memory is the export's alone: the same runExport the
// export-run job worker calls, on the seeded bench mirror. After a warm-up (a small slice:
// JIT, connections) and a full GC, the process's peak-RSS mark is reset (Linux
// /proc/self/clear_refs) so VmHWM afterwards is the export's high-water mark; the V8 heap is
// sampled every 5 ms for its own high-water mark. Prints `RESULT {json}`.
// Env: BENCH_EXPORT_DATABASE_URL, BENCH_EXPORT_SHOP, BENCH_EXPORT_ENCODING, BENCH_EXPORT_DIR.
import { readFileSync, writeFileSync } from 'node:fs'
import type { ExportEncoding } from '@teiki/contract'
import { createPool } from '../apps/server/src/db/pool.ts'
import { runExport } from '../apps/server/src/features/exports/run.ts'
import { createExportJob } from '../apps/server/src/features/exports/service.ts'
import { findInstalledShop } from '../apps/server/src/platform/shops-repo.ts'

const env = (name: string) => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}
const MB = 1024 * 1024
/** A /proc/self/status figure in MB (the kernel writes kB). */
const status = (field: 'VmHWM' | 'VmRSS') => {
  const kb = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1]
  return kb ? Math.round((Number(kb) / 1024) * 10) / 10 : null
}
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const pool = createPool(env('BENCH_EXPORT_DATABASE_URL'), 4)
const shop = await findInstalledShop(pool, env('BENCH_EXPORT_SHOP'))
if (!shop) throw new Error('the bench shop is not seeded')
const deps = { db: pool, dataDir: env('BENCH_EXPORT_DIR') }
const encoding = env('BENCH_EXPORT_ENCODING') as ExportEncoding
const warm = await createExportJob(pool, shop, { encoding, statusFilter: ['FAILED'] })
await runExport(deps, shop, warm.id)

gc()
gc()
let peakReset = true
try {
  writeFileSync('/proc/self/clear_refs', '5')
} catch {
  peakReset = false
}
const rssBeforeMB = status('VmRSS')
const heapBefore = process.memoryUsage().heapUsed
let heapPeak = heapBefore
const sampler = setInterval(() => {
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
}, 5)
const started = performance.now()
const job = await createExportJob(pool, shop, { encoding })
const ended = await runExport(deps, shop, job.id)
const wallMs = Math.round(performance.now() - started)
clearInterval(sampler)
heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)
await pool.end()
console.log(
  `RESULT ${JSON.stringify({
    status: ended.status,
    error: ended.error,
    rows: ended.done_rows,
    bytes: Number(ended.byte_size),
    wallMs,
    rssBeforeMB,
    /** The export's peak RSS when the mark could be reset, else the process's since its start. */
    peakRssMB: status('VmHWM'),
    peakReset,
    /** resourceUsage().maxRSS: the process's peak since its start (kB). */
    processMaxRssMB: Math.round(process.resourceUsage().maxRSS / 102.4) / 10,
    heapBeforeMB: Math.round((heapBefore / MB) * 10) / 10,
    heapPeakMB: Math.round((heapPeak / MB) * 10) / 10,
  })}`,
)
