import { join, resolve } from 'node:path'
import type { Emulator } from '@teiki/shopify-emulator'
import { loadConfig } from './config.ts'
import { type EmbeddedPostgres, startEmbeddedPostgres } from './db/embedded.ts'
import { migrate } from './db/migrate.ts'
import { createPool, setPreparedStatements } from './db/pool.ts'
import { seedDemoAppData } from './demo/app-data.ts'
import { connectDemoPixel } from './demo/pixel.ts'
import { SUBSCRIBED_TOPICS } from './features/webhooks/topics.ts'
import { buildApp, DEFAULT_MAIL_FROM } from './http/app.ts'
import { hashSecret } from './http/auth.ts'
import { flushErrorReports, initServerErrorReporting } from './http/error-reporting.ts'
import { startJobs } from './jobs/boss.ts'
import { startFirstSyncJobs } from './jobs/first-sync-jobs.ts'
import { startStatisticsJobs } from './jobs/statistics-jobs.ts'
import { persistentSecret, tightenDataDir } from './local-secrets.ts'
import { startLocalMailCatcher } from './mail/local-catcher.ts'
import { mailBannerLine, mailRoute } from './mail/mail-route.ts'
import { createMailer } from './mail/mailer.ts'
import { shopClientsFor } from './platform/shop-clients.ts'
import { findInstalledShop, upsertShopInstall } from './platform/shops-repo.ts'
import { lockDataDir, writeRuntimeInfo } from './process/runtime.ts'
import { fullSync } from './sync/full-sync.ts'
import { syncSummaryLine } from './sync/sync-message.ts'

export const DEMO_SHOP = 'teiki-demo.myshopify.com'

/**
 * The whole product in one process. With no configuration: embedded PostgreSQL (PGlite) and
 * the platform emulator with the demo shop, both kept in DATA_DIR. DATABASE_URL switches the
 * database; SHOPIFY_API_KEY + SHOPIFY_API_SECRET switch to the real platform.
 */
async function main() {
  const config = loadConfig()
  // Error reporting first, so it sees what goes wrong from here on (nothing is sent without a DSN).
  if (initServerErrorReporting({ dsn: config.SENTRY_DSN }))
    console.log('[teiki] エラー報告を有効にしました (SENTRY_DSN)')
  const dataDir = resolve(config.DATA_DIR)
  // Everything this process creates (the database, exports, mail, state, secrets) is readable
  // by this user only; what an older run left looser is tightened (and said so).
  process.umask(0o077)
  tightenDataDir(dataDir, console.log)
  const stops: Array<() => Promise<void>> = []
  const realPlatform = Boolean(config.SHOPIFY_API_KEY && config.SHOPIFY_API_SECRET)
  // Before anything starts: against the real platform, mail that reaches no customer is refused
  // unless asked for (mail-route.ts).
  const mailTo = mailRoute(config, realPlatform, dataDir)
  // PGlite's folder and the emulator's state file take one writer: while this process runs,
  // `npm run billing` asks it for the run (DATA_DIR/runtime.json); otherwise it opens them itself.
  const unlock = !config.DATABASE_URL || !realPlatform ? lockDataDir(dataDir, 'npm start') : undefined

  let databaseUrl = config.DATABASE_URL
  let embedded: EmbeddedPostgres | undefined
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'pglite'),
      socketDir: join(dataDir, 'socket'),
      log: console.log,
    })
    databaseUrl = embedded.url
    setPreparedStatements(false)
  }
  const pool = embedded
    ? createPool(databaseUrl, 8)
    : createPool(databaseUrl, config.DATABASE_POOL_SIZE, { genericPlans: true })
  stops.push(async () => {
    await pool.end()
    await embedded?.stop()
    unlock?.()
  })
  await migrate(pool)
  // Jobs (billing runs, dunning retries, outcome polls) in the same database, through this pool.
  const jobs = await startJobs({ db: pool })
  // PGlite has no autovacuum: its statistics are refreshed by a job instead.
  if (embedded) await startStatisticsJobs({ jobs, db: pool })
  const apiKey = config.SHOPIFY_API_KEY ?? 'teiki-local-client-id'
  const apiSecret =
    config.SHOPIFY_API_SECRET ?? persistentSecret(join(dataDir, 'app-client-secret'), undefined, console.log)
  let adminOrigin = (shop: string) =>
    (config.SHOPIFY_ADMIN_ORIGIN ?? 'https://{shop}').replace('{shop}', shop)
  // Every Admin API call of this process goes through the app's one paced client per shop
  // (its request handlers, billing, jobs, webhooks and these syncs alike).
  const platform = {
    adminOrigin: (shop: string) => adminOrigin(shop),
    apiKey,
    appUrl: config.SHOPIFY_APP_URL,
  }
  const shopClients = shopClientsFor(platform)
  // A shop installed by token exchange gets its mirror filled by a queued job (bulk exports),
  // run by whichever process takes it; the install's request does not wait for it.
  const queueFirstSync = await startFirstSyncJobs({
    jobs,
    db: pool,
    clients: shopClients,
    print: console.log,
    log: { error: (obj) => console.error('[teiki] 初回の同期に失敗しました（再試行します）:', obj) },
  })

  let emulator: Emulator | undefined
  let secret: string | undefined
  let syncDemoShop: (() => Promise<void>) | undefined
  if (!realPlatform) {
    // Loaded only here: against the real platform the emulator's code is never imported.
    const { createEmulator, DEFAULT_SHOPS } = await import('@teiki/shopify-emulator')
    emulator = await createEmulator({
      dataDir: join(dataDir, 'emulator'),
      // The emulator plays the platform for this app: same client id and secret (session
      // tokens, token exchange and webhook HMACs), and it delivers webhooks to this server.
      apiKey,
      apiSecret,
      controls: config.EMULATOR_TEST_CONTROLS,
      themeFilesExemption: config.EMULATOR_THEME_FILES_EXEMPTION,
      shops: [{ ...DEFAULT_SHOPS[0]!, declinedScopes: config.EMULATOR_DECLINED_SCOPES }],
      // With PORT=0 the URL is known once the server listens (set below).
      webhooks: {
        ...(config.PORT ? { callbackUrl: `http://127.0.0.1:${config.PORT}/webhooks` } : {}),
        topics: [...SUBSCRIBED_TOPICS],
      },
    })
    const { url } = await emulator.listen(config.EMULATOR_PORT, '127.0.0.1')
    adminOrigin = () => url
    stops.unshift(() => emulator!.close())

    secret = persistentSecret(join(dataDir, 'demo-secret'), config.DEMO_SECRET, console.log)
    const install = emulator.install(DEMO_SHOP)
    await upsertShopInstall(pool, {
      domain: DEMO_SHOP,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(secret),
    })
    syncDemoShop = async () => {
      const shop = (await findInstalledShop(pool, DEMO_SHOP))!
      console.log(`[teiki] ${DEMO_SHOP} を Admin API から同期しています…`)
      const summary = await fullSync(pool, shopClients.clientFor(shop), shop)
      const synced = (await findInstalledShop(pool, DEMO_SHOP))!
      console.log(`[teiki] ${syncSummaryLine(DEMO_SHOP, summary, shop.synced_at, synced.iana_timezone)}`)
      const seeded = await seedDemoAppData(pool, shop, shopClients)
      if (seeded.length > 0) console.log(`[teiki] デモ用に用意しました: ${seeded.join('、')}`)
      const publicUrl = () => config.SHOPIFY_APP_URL ?? listeningUrl
      const storeUrl = `${adminOrigin(DEMO_SHOP)}/s/${DEMO_SHOP}/`
      console.log(`[teiki] ${await connectDemoPixel(pool, shop, shopClients, publicUrl, storeUrl)}`)
    }
  }

  // Mail: through SMTP_URL when set; in the embedded default through the local SMTP catcher
  // (a real SMTP server whose page shows what was sent); else .eml files in DATA_DIR/outbox.
  const catcher =
    mailTo.kind === 'catcher' ? await startLocalMailCatcher(config, dataDir, realPlatform) : null
  if (catcher) stops.push(catcher.close)
  const mailer = createMailer({
    db: pool,
    smtpUrl: mailTo.kind === 'smtp' ? mailTo.url : catcher?.smtpUrl,
    outboxDir: join(dataDir, 'outbox'),
    from: config.MAIL_FROM ?? DEFAULT_MAIL_FROM,
  })
  let listeningUrl: string | undefined
  const app = await buildApp({
    db: pool,
    dataDir,
    mailer,
    platform,
    shopClients,
    apiSecret,
    webDist: resolve(import.meta.dirname, '../../web/dist'),
    // Inside the real store admin the page loads App Bridge; against the emulator it does not.
    ...(realPlatform ? { embedded: { apiKey } } : {}),
    logger: { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    jobs,
    ...(catcher ? { mailViewerUrl: catcher.pageUrl } : {}),
    mailFrom: config.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    ...(config.SENTRY_DSN_WEB ? { webSentryDsn: config.SENTRY_DSN_WEB } : {}),
    // The web pixel's ingest URL: SHOPIFY_APP_URL, else where this server listens (known below).
    traffic: { publicUrl: () => config.SHOPIFY_APP_URL ?? listeningUrl },
    onInstalled: queueFirstSync,
  })
  await app.listen({ port: config.PORT, host: config.HOST })
  stops.unshift(async () => {
    await app.close()
    mailer.close()
  })
  // Jobs stop first: a billing run in progress finishes with the platform and the mailer still up.
  stops.unshift(() => jobs.stop())
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.PORT
  const appUrl = `http://${['0.0.0.0', '::', ''].includes(config.HOST) ? '127.0.0.1' : config.HOST}:${port}`
  listeningUrl = appUrl
  if (emulator && !config.PORT) emulator.webhooks.setCallbackUrl(`${appUrl}/webhooks`)
  // What `npm run billing` needs to reach this process (see process/runtime.ts).
  const removeRuntimeInfo = writeRuntimeInfo(dataDir, {
    appUrl,
    ...(embedded ? { databaseUrl: embedded.url } : {}),
    ...(emulator ? { emulatorUrl: adminOrigin(DEMO_SHOP) } : {}),
    ...(catcher ? { mailCatcher: { smtpUrl: catcher.smtpUrl, pageUrl: catcher.pageUrl } } : {}),
  })
  stops.unshift(async () => removeRuntimeInfo())
  const base = config.SHOPIFY_APP_URL ?? `http://${config.HOST}:${port}`

  if (secret) {
    const url = `${base}/?${new URLSearchParams({ shop: DEMO_SHOP, secret })}`
    console.log(`\n  Teiki が起動しました。ブラウザで開いてください:\n\n  ${url}\n\n  (Ctrl-C で停止)\n`)
    console.log(`  ${mailBannerLine(mailTo, catcher?.pageUrl)}\n`)
  } else {
    console.log(`[teiki] listening on ${base}`)
    console.log(`[teiki] ${mailBannerLine(mailTo, catcher?.pageUrl)}`)
  }

  // The page is usable while the mirror fills: rows appear as pages of contracts arrive.
  // A failed sync is reported and the app keeps serving what the mirror has.
  syncDemoShop?.().catch((error) => console.error('[teiki] 同期に失敗しました:', error))

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`[teiki] ${signal}: 停止しています…`)
    let failed = false
    for (const stop of stops) {
      await stop().catch((error) => {
        failed = true
        console.error('[teiki] 停止処理に失敗しました:', error)
      })
    }
    await flushErrorReports()
    console.log(failed ? '[teiki] 停止しました（一部失敗）' : '[teiki] 停止しました')
    process.exit(failed ? 1 : 0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((error) => {
  console.error('[teiki] 起動に失敗しました:', error)
  process.exit(1)
})
