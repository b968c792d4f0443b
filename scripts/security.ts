// `npm run security [-- --soak-seconds 60 --soak-due 2000 --no-soak]`: the security and fault
// suite of issue 11 and its figures (docs/security.md lists each threat, its defence and these
// tests).
//
// 1. The test files that prove the defences (auth matrix on every route and path spelling,
//    cross-tenant ids, the 21,000-request fuzzer, webhook forgery and replay, hostile text,
//    security headers, log redaction, local surfaces, SIGKILLs during billing and edits, two
//    processes on one database, merchant lanes), run by Vitest against PostgreSQL (DATABASE_URL,
//    default the local postgres://postgres@127.0.0.1:5432/postgres: the process tests need it).
//    `npm test` runs the same files; this script runs only them, and counts.
// 2. A soak: a merchant opening contracts and editing notes for 60 s while a billing run spends
//    a Standard shop's rate budget (bench/merchant.ts, `npm run bench -- --only merchant` with a
//    smaller run), printed as p50/p95/max of the detail page and the edit.
//
// Writes bench/results/security.json and exits 1 when a test failed. Timing is reported, not
// asserted (tests do not assert timings; the target, p95 ≤ 1 s, is printed beside the figure).
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { benchMerchant } from '../bench/merchant.ts'

const ROOT = join(import.meta.dirname, '..')

/** The suite, by the threat each file proves a defence against (docs/security.md). */
const SECURITY_TESTS: Record<string, string> = {
  'auth-matrix': 'session token misuse, path tricks',
  auth: 'session token misuse, shop isolation',
  'token-exchange': 'session token misuse (install)',
  'cross-tenant': 'cross-tenant ids',
  fuzz: 'hostile input (21,000 requests)',
  'edge-validation': 'hostile input (NUL, control characters, out-of-range ids)',
  'mirror-hostile-text': 'hostile input from the platform',
  'webhook-forgery': 'forged, replayed and header/body-mismatched webhooks',
  webhooks: 'webhook authenticity and replay',
  'log-redaction': 'secrets in logs',
  'security-headers': 'headers, proxies',
  document: 'framing',
  startup: 'local surfaces (socket, data folder, emulator controls)',
  'data-dir': 'local surfaces (data folder modes)',
  'embedded-db': 'local surfaces (PGlite socket)',
  'admin-client-lanes': 'overload, merchant starvation',
  'merchant-lanes': 'overload, merchant starvation',
  'billing-cli': 'crash (SIGKILL of npm run billing)',
  'mail-outbox': 'crash (mail decided, then sent)',
  'billing-recovery': 'crash (a billing run whose process died)',
  sigkill: 'crash (five SIGKILLs during billing, five during edits)',
  'two-processes': 'two processes on one database',
}

type FileResult = { file: string; threat: string; passed: number; failed: number; skipped: number }

const { values: args } = parseArgs({
  options: {
    'soak-seconds': { type: 'string', default: '60' },
    'soak-due': { type: 'string', default: '2000' },
    'no-soak': { type: 'boolean', default: false },
  },
})
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const log = (line: string) => console.log(`[security] ${line}`)

function runSuite(): { files: FileResult[]; ok: boolean } {
  const report = join(tmpdir(), `teiki-security-${process.pid}.json`)
  const files = Object.keys(SECURITY_TESTS).map((name) => `apps/server/test/${name}.test.ts`)
  log(`${files.length} test files against ${new URL(databaseUrl).host}…`)
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'server',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...files,
    ],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, TZ: 'UTC', DATABASE_URL: databaseUrl } },
  )
  type Json = { testResults: Array<{ name: string; assertionResults: Array<{ status: string }> }> }
  const json = JSON.parse(readFileSync(report, 'utf8')) as Json
  rmSync(report, { force: true })
  const results = json.testResults.map((f): FileResult => {
    const name = f.name.replace(/^.*\/test\//, '').replace(/\.test\.ts$/, '')
    const count = (status: string) => f.assertionResults.filter((t) => t.status === status).length
    return {
      file: `apps/server/test/${name}.test.ts`,
      threat: SECURITY_TESTS[name] ?? '',
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped') + count('pending') + count('todo'),
    }
  })
  results.sort((a, b) => a.file.localeCompare(b.file))
  return { files: results, ok: run.status === 0 }
}

const suite = runSuite()
for (const f of suite.files) {
  log(
    `${f.failed > 0 ? 'FAIL' : 'ok  '} ${f.file.padEnd(44)} ${String(f.passed).padStart(3)} passed` +
      `${f.failed ? `, ${f.failed} failed` : ''}${f.skipped ? `, ${f.skipped} skipped` : ''}  (${f.threat})`,
  )
}
const totals = suite.files.reduce(
  (t, f) => ({ passed: t.passed + f.passed, failed: t.failed + f.failed, skipped: t.skipped + f.skipped }),
  { passed: 0, failed: 0, skipped: 0 },
)
log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)

let soak: Awaited<ReturnType<typeof benchMerchant>> | null = null
if (!args['no-soak']) {
  const seconds = Number(args['soak-seconds'])
  log(`soak: a merchant for ${seconds} s during a billing run of ${args['soak-due']} due contracts…`)
  soak = await benchMerchant({
    baseUrl: databaseUrl,
    dbName: 'teiki_security_soak',
    due: Number(args['soak-due']),
    seconds,
    thinkMs: 1000,
    log,
  })
  const d = soak.during
  log(
    `soak: during billing, detail p50 ${d.detail.p50Ms} ms p95 ${d.detail.p95Ms} ms (≤ 1000) max ${d.detail.maxMs} ms` +
      ` (n ${d.detail.n}); edit p50 ${d.edit.p50Ms} ms p95 ${d.edit.p95Ms} ms (≤ 1000) max ${d.edit.maxMs} ms` +
      ` (n ${d.edit.n}); 503s ${d.busy503}; billing ${soak.billing.withMerchant.attemptsPerSecond} attempts/s` +
      ` with the merchant, ${soak.billing.alone.attemptsPerSecond} alone`,
  )
}

const out = join(ROOT, 'bench/results/security.json')
mkdirSync(join(ROOT, 'bench/results'), { recursive: true })
writeFileSync(
  out,
  `${JSON.stringify({ at: new Date().toISOString(), tests: { totals, files: suite.files }, soak }, null, 2)}\n`,
)
log(`written to bench/results/security.json`)
process.exit(suite.ok && totals.failed === 0 ? 0 : 1)
