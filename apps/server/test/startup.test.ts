import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STAMP, testSessionToken } from './support/fixtures.ts'
import { tcpListenPorts } from './support/listeners.ts'
import { rawRequest } from './support/raw-http.ts'

// Issue 11 item 7 on the real process (`apps/server/src/main.ts`, the embedded default that
// `npm start` runs), its stdout and stderr going to a file as a service manager would keep them:
// TCP only for the app and the emulator, the database on a private unix socket, the data folder
// private (tightened when it existed looser), the emulator's test controls closed, `npm run
// billing` reaching the app, and no credential in the output but the login URL printed on purpose.

const ROOT = new URL('../../../', import.meta.url).pathname
const SHOP = 'teiki-demo.myshopify.com'
const SECRET = `startup-demo-secret-${STAMP}`
let work: string
let dataDir: string
let outFile: string
let child: ChildProcess
let exited: Promise<number | null>
let runtime: {
  appUrl: string
  databaseUrl: string
  emulatorUrl: string
  mailCatcher: { smtpUrl: string; pageUrl: string }
}

const output = () => readFileSync(outFile, 'utf8')
const mode = (path: string) => lstatSync(path).mode & 0o777

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    EMULATOR_PORT: '0',
    LOG_LEVEL: 'info',
    ...extra,
  }
  for (const key of [
    'DATABASE_URL',
    'DEMO_SECRET',
    'SHOPIFY_API_KEY',
    'SHOPIFY_API_SECRET',
    'SHOPIFY_APP_URL',
    'EMULATOR_TEST_CONTROLS',
    'TRUST_PROXY',
  ])
    delete vars[key]
  return vars
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'teiki-startup-'))
  dataDir = join(work, '.data')
  outFile = join(work, 'teiki.out')
  // A data folder from before the rule: world-readable, with a secret and an export in it.
  mkdirSync(join(dataDir, 'exports'), { recursive: true, mode: 0o755 })
  writeFileSync(join(dataDir, 'demo-secret'), `${SECRET}\n`, { mode: 0o644 })
  writeFileSync(join(dataDir, 'exports', 'old.csv'), 'メール\nhanako@example.jp\n', { mode: 0o644 })
  spawnSync('chmod', ['0755', dataDir, join(dataDir, 'exports')])
  const fd = openSync(outFile, 'w')
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: env(),
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + 170_000
  while (!/http:\/\/127\.0\.0\.1:\d+\/\?shop=/.test(output())) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the app did not start:\n${output()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  runtime = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8'))
}, 180_000)

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await exited
  }
  rmSync(work, { recursive: true, force: true })
})

describe('npm start (embedded default)', () => {
  it('listens on TCP only for the app, the emulator and the local mail catcher (SMTP and its page); the database is a unix socket in DATA_DIR', () => {
    const port = (url: string) => Number(new URL(url).port)
    expect(tcpListenPorts(child.pid!)).toEqual(
      [
        port(runtime.appUrl),
        port(runtime.emulatorUrl),
        port(runtime.mailCatcher.smtpUrl),
        port(runtime.mailCatcher.pageUrl),
      ].sort((a, b) => a - b),
    )
    const host = new URLSearchParams(runtime.databaseUrl.split('?')[1]).get('host')
    expect(host).toBe(join(dataDir, 'socket'))
    expect(lstatSync(join(host!, '.s.PGSQL.5432')).isSocket()).toBe(true)
    expect(mode(join(host!, '.s.PGSQL.5432'))).toBe(0o600)
  })

  it('keeps DATA_DIR private: every folder 0700, no file readable by others, the old ones tightened', () => {
    const loose: string[] = []
    const walk = (dir: string) => {
      if (mode(dir) !== 0o700) loose.push(`${dir} ${mode(dir).toString(8)}`)
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        const stat = lstatSync(path)
        if (stat.isDirectory()) walk(path)
        else if (stat.mode & 0o077) loose.push(`${path} ${mode(path).toString(8)}`)
      }
    }
    walk(dataDir)
    expect(loose).toEqual([])
    expect(mode(join(dataDir, 'runtime.json'))).toBe(0o600)
    expect(mode(join(dataDir, 'app-client-secret'))).toBe(0o600)
    expect(mode(join(dataDir, 'demo-secret'))).toBe(0o600)
    expect(mode(join(dataDir, 'exports', 'old.csv'))).toBe(0o600)
    expect(output()).toContain(`[teiki] ${dataDir} の権限を 0755 から 0700 にしました`)
    // exports/, demo-secret and exports/old.csv:
    expect(output()).toMatch(/の 3 件を他のユーザーが読めない権限/)
  })

  it('closes the emulator’s test controls, on its port and through the app’s', async () => {
    const onEmulator = await rawRequest(
      runtime.emulatorUrl,
      'POST',
      '/emulator/faults',
      {},
      '{"errorRate":1}',
    )
    expect(onEmulator.status).toBe(404)
    const throughApp = await rawRequest(runtime.appUrl, 'POST', '/emulator/faults', {}, '{"errorRate":1}')
    expect(throughApp.status).toBe(404)
    // The platform still answers: the knob was not set.
    const search = await rawRequest(
      runtime.appUrl,
      'GET',
      `/app-admin/subscriptions/search?shop=${SHOP}&secret=${SECRET}`,
    )
    expect(search.status).toBe(200)
  })

  it('lets npm run billing make its run through the running app', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/billing.ts', '--shop', SHOP, '--now', '2020-01-01T00:00:00Z'],
      { cwd: ROOT, env: env({ LOG_LEVEL: 'error' }), encoding: 'utf8', timeout: 120_000 },
    )
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ shop: SHOP, due: 0, attempted: 0 })
  }, 130_000)

  it('prints the secret only in the login URL and no token at all, while logging every request', async () => {
    const apiSecret = readFileSync(join(dataDir, 'app-client-secret'), 'utf8').trim()
    const token = testSessionToken(SHOP, { aud: 'teiki-local-client-id' }, apiSecret)
    const withSecret = `/app-admin/plan?shop=${SHOP}&secret=${SECRET}`
    expect((await rawRequest(runtime.appUrl, 'GET', withSecret)).status).toBe(200)
    const withToken = await rawRequest(runtime.appUrl, 'GET', '/app-admin/plan', {
      authorization: `Bearer ${token}`,
    })
    expect(withToken.status).toBe(200)
    const badSecret = await rawRequest(
      runtime.appUrl,
      'GET',
      `/app-admin/plan?shop=${SHOP}&secret=${SECRET}x`,
    )
    expect(badSecret.status).toBe(401)
    const state = readFileSync(join(dataDir, 'emulator', 'emulator-state.json'), 'utf8')
    const accessToken = /"accessToken":\s*"(shpat_[^"]+)"/.exec(state)?.[1]
    expect(accessToken).toBeDefined()

    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    const text = output()
    expect(text.split('\n').filter((line) => line.includes(SECRET))).toEqual([
      `  http://127.0.0.1:${new URL(runtime.appUrl).port}/?shop=${SHOP}&secret=${SECRET}`,
    ])
    for (const value of [token, token.split('.')[2]!, apiSecret, accessToken!])
      expect(text).not.toContain(value)
    expect(text).toContain(`"url":"/app-admin/plan?shop=${SHOP}&secret=[REDACTED]"`)
    expect(text).toContain('"url":"/app-admin/plan"')
  }, 60_000)
})
