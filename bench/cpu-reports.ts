// `npx tsx bench/cpu-reports.ts [kinds]`: where a report request's CPU goes (server process,
// the PostgreSQL backends of the bench database, load generator), from /proc counters around a
// closed-loop run, as bench/cpu-per-request.ts does for search. Kinds: health, daily (the six
// daily paths in turn, as `npm run bench -- --only analytics`), one path (active-contract,
// new-contract, cancel, pause, subtotal, failure) or persistence (unfiltered, by group, by
// source in turn). Needs the analytics bench database (`npm run bench -- --only analytics` or
// `npm run seed -- --analytics`); BENCH_URL overrides it. CONNS (32), SECONDS (6), POOL (the
// server's DATABASE_POOL_SIZE), PROF=1 (a V8 CPU profile of the server in /tmp/teiki-prof).
import { analyticsPaths, REPORT_PATHS } from './analytics.ts'
import { ANALYTICS_SECRET, ANALYTICS_SHOP } from './analytics-seed.ts'
import { runLoad } from './load.ts'
import { processTicks } from './proc-ticks.ts'
import { startServer } from './server-process.ts'

const url = process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/teiki_bench_analytics'
const database = new URL(url).pathname.slice(1)
const server = await startServer(
  {
    DATABASE_URL: url,
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
    ...(process.env.POOL ? { DATABASE_POOL_SIZE: process.env.POOL } : {}),
  },
  process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/teiki-prof'] : [],
)
const { reportPath, dailyReports, persistence } = analyticsPaths(
  `shop=${ANALYTICS_SHOP}&secret=${ANALYTICS_SECRET}`,
)
const paths: Record<string, (i: number) => string> = {
  health: () => '/health',
  daily: dailyReports,
  ...Object.fromEntries(REPORT_PATHS.map((p) => [p.slice(p.indexOf('/') + 1), reportPath(p)])),
  persistence,
}
const ticks = () => processTicks(server.child.pid, database)

const connections = Number(process.env.CONNS ?? 32)
for (const kind of (process.argv[2] ?? 'health,daily,persistence').split(',')) {
  const nextPath = paths[kind]
  if (!nextPath) throw new Error(`unknown kind ${kind}: ${Object.keys(paths).join(', ')}`)
  const before = ticks()
  const seconds = Number(process.env.SECONDS ?? 6)
  const result = await runLoad({ port: server.port, connections, seconds, warmupSeconds: 1, nextPath })
  const after = ticks()
  const perRequest = (key: keyof typeof before) =>
    Math.round(((after[key] - before[key]) * 10_000) / result.requests)
  console.log(
    `${kind.padEnd(14)} ${connections} conn ${result.rps} req/s p50 ${result.p50Ms} ms p95 ${result.p95Ms} ms | µs CPU per request: server ${perRequest('server')}, postgres ${perRequest('postgres')}, load generator ${perRequest('loader')}`,
  )
}
await server.stop()
