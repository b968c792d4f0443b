// `npm run billing -- --shop <domain> [--now <ISO time>] [--timeout <seconds>] [--notices]`
//
// Runs one billing run of one shop synchronously (apps/server/src/billing/run.ts): charges the
// contracts due at `now` (default: the real now), waits for every attempt's outcome by polling
// the platform, applies it (schedule, dunning, mail) and prints the summary as one JSON line:
// {shop, now, due, attempted, succeeded, failed, skipped, alreadyBilled} (ZBillingRunSummary).
// `--notices`: then also sends the 次回請求のお知らせ due at `now` (what the hourly job sends at
// that moment: contracts billed in 3 shop days, from 9:00) and adds `notices` (how many).
// Exit 0 when the run finished (failed charges included), 1 on an error, 2 on bad arguments.
//
// Where it finds the database and the platform
// --------------------------------------------
// - DATABASE_URL set: that PostgreSQL, whatever else runs.
// - Embedded default, `npm start` running: PGlite is a single-process database that the app
//   owns (it serves it on a socket). This script does not open the database then: it asks the
//   app to make the run, so the run shares the app's paced Admin client (one estimate of the
//   shop's point bucket) and receives the emulator's webhooks. The app writes DATA_DIR/runtime.json (pid, HTTP origin, socket and
//   emulator URLs); the script POSTs {shop, now} to <app>/internal/billing/run, signed with the
//   app's client secret (HMAC-SHA256 like a webhook; the secret is read where the app reads it:
//   SHOPIFY_API_SECRET or DATA_DIR/app-client-secret), and prints the summary the app answers.
//   The run is the same code (runBilling, waiting for outcomes), in the process that owns PGlite.
//   A runtime.json without an HTTP origin (an older app) falls back to the socket.
// - Embedded default, app not running: this script takes DATA_DIR/embedded.lock (the app takes
//   the same lock at start, so the two never open the folder together: whichever comes second
//   waits for the other or stops with a message), opens DATA_DIR/pglite itself and migrates it.
// - The platform is reached the way the app reaches it, with the shop's stored offline token:
//   SHOPIFY_API_KEY + SHOPIFY_API_SECRET → `https://{shop}` (or SHOPIFY_ADMIN_ORIGIN); else the
//   running app's emulator (runtime.json); else this script starts the emulator itself on
//   DATA_DIR/emulator under the same lock, so only one emulator ever writes its state file. That
//   emulator has no app to send webhooks to: outcomes come from polling, as they always may.
// With the app running on PostgreSQL, this script runs in its own process beside it: the app's
// webhook handler may apply an outcome before this script's poll sees it; both go through the
// cycle row's conditional update, so each outcome is applied once and this script counts it.
import { createHmac } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { join, resolve } from 'node:path'
import { inspect, parseArgs } from 'node:util'
import { ZBillingRunSummary } from '@teiki/contract'
import { createBillingEngine } from '../apps/server/src/billing/engine.ts'
import { ZInternalBillingRunAnswer } from '../apps/server/src/billing/routes.ts'
import { runBilling } from '../apps/server/src/billing/run.ts'
import { loadConfig } from '../apps/server/src/config.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool, setPreparedStatements } from '../apps/server/src/db/pool.ts'
import { sendUpcomingNotices } from '../apps/server/src/features/mail-templates/upcoming-notice.ts'
import { DEFAULT_MAIL_FROM } from '../apps/server/src/http/app.ts'
import { INTERNAL_HMAC_HEADER } from '../apps/server/src/http/auth.ts'
import { persistentSecret } from '../apps/server/src/local-secrets.ts'
import { createMailer } from '../apps/server/src/mail/mailer.ts'
import { createShopClients } from '../apps/server/src/platform/shop-clients.ts'
import { findInstalledShop } from '../apps/server/src/platform/shops-repo.ts'
import { lockDataDir, readRuntimeInfo } from '../apps/server/src/process/runtime.ts'

function usage(message: string): never {
  console.error(`[billing] ${message}`)
  console.error(
    'usage: npm run billing -- --shop <domain> [--now <ISO time>] [--timeout <seconds>] [--notices]',
  )
  process.exit(2)
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        shop: { type: 'string' },
        now: { type: 'string' },
        timeout: { type: 'string', default: '600' },
        notices: { type: 'boolean', default: false },
      },
    })
  } catch (error) {
    return usage((error as Error).message)
  }
})()
if (!values.shop) usage('--shop is required')
const now = values.now ? new Date(values.now) : new Date()
if (Number.isNaN(now.getTime())) usage(`--now is not a date-time: ${values.now}`)
const timeoutSeconds = Number(values.timeout)
if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) usage('--timeout must be a positive number')

const cleanups: Array<() => Promise<void> | void> = []

async function main(): Promise<number> {
  const config = loadConfig()
  const dataDir = resolve(config.DATA_DIR)
  // What this script creates in the data folder (PGlite files, mail) is private, as the app's.
  process.umask(0o077)
  const realPlatform = Boolean(config.SHOPIFY_API_KEY && config.SHOPIFY_API_SECRET)
  const app = readRuntimeInfo(dataDir)
  let unlock: (() => void) | undefined
  const lock = () => {
    if (unlock) return
    unlock = lockDataDir(dataDir, 'npm run billing')
    cleanups.push(() => unlock?.())
  }

  if (!config.DATABASE_URL && app?.databaseUrl && app.appUrl) {
    return runInApp(
      app.appUrl,
      config.SHOPIFY_API_SECRET ?? persistentSecret(join(dataDir, 'app-client-secret')),
    )
  }

  if (!config.DATABASE_URL && app && !app.databaseUrl) {
    console.error(
      '[billing] 起動中のアプリは DATABASE_URL のデータベースを使っています。同じ DATABASE_URL を指定して実行してください',
    )
    return 2
  }

  let databaseUrl = config.DATABASE_URL
  let embedded: EmbeddedPostgres | undefined
  if (!databaseUrl && app?.databaseUrl) {
    databaseUrl = app.databaseUrl
  } else if (!databaseUrl) {
    lock()
    embedded = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'pglite'),
      socketDir: join(dataDir, 'socket'),
    })
    databaseUrl = embedded.url
  }
  if (!config.DATABASE_URL) setPreparedStatements(false)
  const pool = config.DATABASE_URL
    ? createPool(databaseUrl!, 8, { genericPlans: true })
    : createPool(databaseUrl!, 8)
  cleanups.unshift(async () => {
    await pool.end()
    await embedded?.stop()
  })
  await migrate(pool)

  let adminOrigin = (shop: string) =>
    (config.SHOPIFY_ADMIN_ORIGIN ?? 'https://{shop}').replace('{shop}', shop)
  if (!realPlatform) {
    if (app?.emulatorUrl) {
      const url = app.emulatorUrl
      adminOrigin = () => url
    } else {
      lock()
      const { createEmulator } = await import('@teiki/shopify-emulator')
      const emulator = await createEmulator({
        dataDir: join(dataDir, 'emulator'),
        apiKey: config.SHOPIFY_API_KEY ?? 'teiki-local-client-id',
        apiSecret: persistentSecret(join(dataDir, 'app-client-secret')),
      })
      const { url } = await emulator.listen(0, '127.0.0.1')
      adminOrigin = () => url
      cleanups.unshift(() => emulator.close())
    }
  }

  const shop = await findInstalledShop(pool, values.shop!)
  if (!shop) {
    console.error(`[billing] ストア ${values.shop} はインストールされていません`)
    return 2
  }
  const clients = createShopClients({ adminOrigin })
  const mailer = createMailer({
    db: pool,
    smtpUrl: config.SMTP_URL,
    outboxDir: join(dataDir, 'outbox'),
    from: config.MAIL_FROM ?? DEFAULT_MAIL_FROM,
  })
  cleanups.unshift(() => mailer.close())
  const engine = createBillingEngine({
    db: pool,
    clients,
    mailer,
    log: {
      warn: (obj, msg) =>
        console.error(`[billing] ${msg} ${inspect(obj, { breakLength: Infinity, depth: 3 })}`),
      error: (obj, msg) =>
        console.error(`[billing] ${msg} ${inspect(obj, { breakLength: Infinity, depth: 3 })}`),
    },
  })
  const summary = await runBilling({
    db: pool,
    clients,
    shop,
    now,
    engine,
    trigger: 'cli',
    wait: { timeoutMs: timeoutSeconds * 1000 },
  })
  if (!values.notices) {
    console.log(JSON.stringify(ZBillingRunSummary.parse(summary)))
    return 0
  }
  const notices = await sendUpcomingNotices(
    {
      db: pool,
      mailer,
      quote: engine.quoteNextCycle,
      log: { warn: (obj, msg) => console.error(`[billing] ${msg}`, obj) },
    },
    shop,
    now,
  )
  console.log(JSON.stringify(ZInternalBillingRunAnswer.parse({ ...summary, notices })))
  return 0
}

/** The run made by the running app (embedded database): POST /internal/billing/run, signed. */
async function runInApp(appUrl: string, apiSecret: string): Promise<number> {
  const body = JSON.stringify({
    shop: values.shop,
    now: now.toISOString(),
    timeoutMs: timeoutSeconds * 1000,
    ...(values.notices ? { notices: true } : {}),
  })
  const signature = createHmac('sha256', apiSecret).update(body).digest('base64')
  // node:http: no client-side timeout (a large run waits for its outcomes for minutes).
  const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = httpRequest(
      new URL('/internal/billing/run', appUrl),
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [INTERNAL_HMAC_HEADER]: signature,
        },
      },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          text += chunk
        })
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
  if (answer.status === 200) {
    console.log(JSON.stringify(ZInternalBillingRunAnswer.parse(JSON.parse(answer.text))))
    return 0
  }
  let message = answer.text
  try {
    message = (JSON.parse(answer.text) as { error: { message: string } }).error.message
  } catch {
    // not the API's error shape: print it as it came
  }
  console.error(`[billing] ${message}`)
  return answer.status === 404 ? 2 : 1
}

let code = 1
try {
  code = await main()
} catch (error) {
  console.error('[billing] 請求の実行に失敗しました:', error instanceof Error ? error.message : error)
  code = 1
} finally {
  for (const cleanup of cleanups) {
    try {
      await cleanup()
    } catch (error) {
      console.error('[billing] 後始末に失敗しました:', error)
    }
  }
}
process.exit(code)
