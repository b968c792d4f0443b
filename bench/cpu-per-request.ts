// `npx tsx bench/cpu-per-request.ts [kinds]`: where a search request's CPU goes (server
// process, PostgreSQL backends, load generator), from /proc counters around a load run.
// Needs the bench database (run `npm run bench` once). PROF=1 also writes a V8 CPU profile
// of the server to /tmp/teiki-prof. BENCH_URL overrides the database (e.g. a Unix socket).
import { runLoad } from './load.ts'
import { processTicks } from './proc-ticks.ts'
import { BENCH_SECRET, benchShopDomain } from './seed-mirror.ts'
import { startServer } from './server-process.ts'

const server = await startServer(
  {
    DATABASE_URL: process.env.BENCH_URL ?? 'postgres://postgres@127.0.0.1:5432/teiki_bench',
    SHOPIFY_API_KEY: 'bench-client-id',
    SHOPIFY_API_SECRET: 'bench-client-secret',
  },
  process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/teiki-prof'] : [],
)
const auth = `shop=${benchShopDomain(0)}&secret=${BENCH_SECRET}`
const pick = (i: number) => 1 + ((i * 2654435761) % 100_000)
const day = (offset: number) => new Date(Date.UTC(2026, 10, 22 + offset)).toISOString().slice(0, 10)
const paths: Record<string, (i: number) => string> = {
  health: () => '/health',
  email: (i) => `/app-admin/subscriptions/search?${auth}&customerQuery=user${pick(i)}%40example.jp`,
  range: (i) =>
    `/app-admin/subscriptions/search?${auth}&statuses=ACTIVE&nextBillingDateFrom=${day(i % 30)}&nextBillingDateTo=${day((i % 30) + 7)}`,
  contract: (i) => `/app-admin/subscriptions/search?${auth}&contractId=${10_000_000_000 + pick(i)}`,
  variant: (i) =>
    `/app-admin/subscriptions/search-variant-id?${auth}&variantId=${44_000_000_000_000 + (i % 400)}`,
}

const ticks = () => processTicks(server.child.pid)

for (const kind of (process.argv[2] ?? 'health,email,range,contract,variant').split(',')) {
  const before = ticks()
  const result = await runLoad({
    port: server.port,
    connections: 32,
    seconds: 5,
    warmupSeconds: 1,
    nextPath: paths[kind]!,
  })
  const after = ticks()
  const perRequest = (key: keyof typeof before) =>
    Math.round(((after[key] - before[key]) * 10_000) / result.requests)
  console.log(
    `${kind.padEnd(9)} ${result.rps} req/s p95 ${result.p95Ms} ms | µs CPU per request: server ${perRequest('server')}, postgres ${perRequest('postgres')}, load generator ${perRequest('loader')}`,
  )
}
await server.stop()
