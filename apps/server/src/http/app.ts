import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import { ErrorCode, errorStatus } from '@teiki/contract'
import Fastify, { type FastifyReply } from 'fastify'
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { createBillingEngine } from '../billing/engine.ts'
import { billingRoutes, internalBillingRoutes } from '../billing/routes.ts'
import type { Db } from '../db/pool.ts'
import { appPlanRoutes } from '../features/app-plan/routes.ts'
import { shopUsage } from '../features/app-plan/usage.ts'
import { batchRoutes } from '../features/batch/routes.ts'
import { boxRoutes } from '../features/boxes/routes.ts'
import { cancellationReasonRoutes } from '../features/cancellation-reasons/routes.ts'
import { cdpRoutes } from '../features/cdp/routes.ts'
import { deliveryRoutes } from '../features/delivery/routes.ts'
import { exportRoutes } from '../features/exports/routes.ts'
import { createInstaller } from '../features/install/service.ts'
import { mailTemplateRoutes } from '../features/mail-templates/routes.ts'
import { myPageRoutes } from '../features/my-page/routes.ts'
import { productRoutes } from '../features/products/routes.ts'
import { reportRoutes } from '../features/reports/routes.ts'
import { sellingPlanRoutes } from '../features/selling-plans/routes.ts'
import { settingsRoutes } from '../features/settings/routes.ts'
import { shippingRoutes } from '../features/shipping/routes.ts'
import { shopRoutes } from '../features/shops/routes.ts'
import { contractActionRoutes } from '../features/subscriptions/actions-routes.ts'
import { createContractActions } from '../features/subscriptions/actions-service.ts'
import { contractDetailRoutes } from '../features/subscriptions/detail-routes.ts'
import { contractEditRoutes } from '../features/subscriptions/edits-routes.ts'
import { subscriptionRoutes } from '../features/subscriptions/routes.ts'
import { thankYouRoutes } from '../features/thank-you/routes.ts'
import { themeRoutes } from '../features/theme/routes.ts'
import { trafficPixelConnector, trafficRoutes } from '../features/traffic/routes.ts'
import { webhookRoutes } from '../features/webhooks/routes.ts'
import { batchEnqueuer, startBatchJobs } from '../jobs/batch-jobs.ts'
import { type BillingJobsOptions, startBillingJobs } from '../jobs/billing-jobs.ts'
import type { Jobs } from '../jobs/boss.ts'
import { segmentExportEnqueuer, startCdpJobs, tagJobEnqueuer } from '../jobs/cdp-jobs.ts'
import { exportEnqueuer, startExportJobs } from '../jobs/export-jobs.ts'
import { startMailJobs } from '../jobs/mail-jobs.ts'
import { startMyPageJobs } from '../jobs/my-page-jobs.ts'
import { startTrafficJobs } from '../jobs/traffic-jobs.ts'
import { startUpcomingNoticeJobs } from '../jobs/upcoming-notice-jobs.ts'
import { startWebhookJobs, webhookDeferrer } from '../jobs/webhook-jobs.ts'
import { createMailer, type Mailer } from '../mail/mailer.ts'
import { PlatformBusyError } from '../platform/errors.ts'
import { type PacedShopClients, shopClientsFor } from '../platform/shop-clients.ts'
import { findInstalledShop, type ShopRow } from '../platform/shops-repo.ts'
import { AppError } from './app-error.ts'
import type { AppInstance, PlatformOptions, RouteEntry } from './app-instance.ts'
import { registerAuth } from './auth.ts'
import { documentSender } from './document.ts'
import { reportServerError } from './error-reporting.ts'
import { logController, loggerOptions } from './log-redaction.ts'
import { registerPlanFeatures, withPlanFeature } from './plan-features.ts'
import { platformBusy, registerRequestContext } from './request-context.ts'
import { frameworkErrors, registerRequestGuard } from './request-guard.ts'
import { requireRouteAuth, withRouteAuth } from './route-auth.ts'
import { registerSecurityHeaders, setSecurityHeaders } from './security-headers.ts'
import { serializerCompiler } from './serializer.ts'

export type { AppInstance, PlatformOptions, RouteEntry }

export type BuildAppOptions = {
  db: Db
  platform: PlatformOptions
  /** The process's paced clients when it already made them (main.ts syncs with them too); else made here. */
  shopClients?: PacedShopClients
  apiSecret?: string
  /** Built SPA folder to serve at /; omitted in API-only tests. */
  webDist?: string
  /**
   * Set when the app runs embedded in the real store admin: the SPA document then loads App
   * Bridge with this client id (http/document.ts). Unset for the emulator's standalone login.
   */
  embedded?: { apiKey: string }
  /** Request and error logs (pino, credentials redacted: http/log-redaction.ts); `file` instead of stdout. */
  logger?: boolean | { level: string; file?: string }
  /**
   * Which proxies' X-Forwarded-* headers to believe (client address, https): Fastify's
   * `trustProxy` (true, a hop count, or addresses/CIDRs). Default off: anyone could send them.
   */
  trustProxy?: boolean | number | string[]
  /** A shop just installed through token exchange (kick off its first sync). */
  onInstalled?: (shop: ShopRow) => void | Promise<void>
  /** Where generated files go (CSV exports, the mail outbox). Default: `<os tmpdir>/teiki`. */
  dataDir?: string
  /** How the app sends mail. Default: .eml files in `<dataDir>/outbox` (no SMTP). */
  mailer?: Mailer
  /** Started job queue (jobs/boss.ts): the billing engine's jobs run on it. Without: no jobs. */
  jobs?: Jobs
  /** Knobs of the billing jobs (tests turn the cron off and poll sooner). */
  billingJobs?: Pick<
    BillingJobsOptions,
    'cron' | 'pollAfterSeconds' | 'pollRetryDelaySeconds' | 'pollingIntervalSeconds'
  >
  /** Knobs of the export and mail jobs (tests turn the crons off and poll sooner). */
  exportJobs?: { cron?: boolean; pollingIntervalSeconds?: number }
  mailJobs?: { cron?: boolean; pollingIntervalSeconds?: number }
  /** Knobs of the batch update jobs (tests turn the sweep's cron off, poll sooner, fewer at once). */
  batchJobs?: { cron?: boolean; pollingIntervalSeconds?: number; concurrency?: number }
  /** Knobs of the segment tag batch and export jobs (tests turn the sweep's cron off, poll sooner). */
  cdpJobs?: { cron?: boolean; pollingIntervalSeconds?: number; concurrency?: number }
  /** Knobs of the deferred webhook reads (tests defer less and poll sooner). */
  webhookJobs?: { deferSeconds?: number; pollingIntervalSeconds?: number }
  /** The local mail catcher's page (embedded default), linked from the mail screens. */
  mailViewerUrl?: string
  /** The browser's error reporting DSN (SENTRY_DSN_WEB), written into the page; unset: none. */
  webSentryDsn?: string
  /** Sender of the app's mail (MAIL_FROM), shown on the mail screens. */
  mailFrom?: string
  /**
   * Knobs of the traffic feature: the app's public URL the web pixel sends to (default
   * `platform.appUrl`; main.ts passes the listening address when SHOPIFY_APP_URL is unset).
   */
  traffic?: { publicUrl?: () => string | undefined }
  /** Knobs of the traffic attribution job (tests turn its cron off and poll sooner). */
  trafficJobs?: { cron?: boolean; pollingIntervalSeconds?: number }
  /** Clock of the billing views ("today" of the upcoming charges); tests fix it. */
  now?: () => Date
  /** Least time between two checks of a shop's scopes by GET /order-history (default 60 s). */
  orderHistoryRecheckMs?: number
}

export const DEFAULT_MAIL_FROM = 'Teiki <no-reply@teiki.invalid>'

/**
 * After a token exchange installed a shop: its web pixel is connected (a refusal is recorded
 * for the 流入元 screen and logged), beside the caller's hook (the first sync).
 */
function installHook(app: AppInstance, opts: BuildAppOptions) {
  const pixel = trafficPixelConnector(app, opts.traffic)
  return async (shop: ShopRow) => {
    await Promise.all([
      pixel.ensure(shop).catch((error: unknown) => {
        app.log.warn({ err: error, shop: shop.domain }, 'web pixel not connected at install')
      }),
      opts.onInstalled?.(shop),
    ])
  }
}

/** Builds the HTTP app: auth, /app-admin routes, OpenAPI, errors, and the SPA. */
export async function buildApp(opts: BuildAppOptions): Promise<AppInstance> {
  const app = Fastify({
    logger: opts.logger ? loggerOptions(opts.logger === true ? { level: 'info' } : opts.logger) : false,
    logController,
    trustProxy: trustedProxies(opts.trustProxy),
    // A URL the router cannot decode (`/a/%`) or an over-long parameter is refused before any
    // hook runs: answered in the API's error shape, with the same security headers as every other answer.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      setSecurityHeaders(request, reply, { appUrl: opts.platform.appUrl })
      frameworkErrors(error, request, reply)
    },
  }).withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const { db } = opts
  app.decorate('db', db)
  app.decorate('platformOptions', opts.platform)
  const routeList: RouteEntry[] = []
  app.decorate('routeList', routeList)
  requireRouteAuth(app)
  registerSecurityHeaders(app, { appUrl: opts.platform.appUrl })
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeList.push({
        method,
        url: route.url,
        config: (route.config ?? {}) as Record<string, unknown>,
        schema: route.schema as Record<string, unknown> | undefined,
      })
    }
  })
  const dataDir = opts.dataDir ?? join(tmpdir(), 'teiki')
  const mailer =
    opts.mailer ?? createMailer({ db, outboxDir: join(dataDir, 'outbox'), from: DEFAULT_MAIL_FROM })
  const shopClients = opts.shopClients ?? shopClientsFor(opts.platform)
  app.decorate('shopClients', shopClients)
  // The billing engine, before the routes: the webhook handler and "create order now" are
  // handed it (app.billingEngine); with a job queue it also gets its scheduler (retries,
  // outcome polls, daily runs).
  const billingEngine = createBillingEngine({
    db,
    clients: shopClients,
    mailer,
    log: app.log,
  })
  app.decorate('billingEngine', billingEngine)

  await app.register(swagger, {
    openapi: {
      info: { title: 'Teiki app-admin API', version: '0.1.0' },
      components: {
        securitySchemes: {
          sessionToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          shopSecret: { type: 'apiKey', in: 'query', name: 'secret' },
        },
      },
      security: [{ sessionToken: [] }, { shopSecret: [] }],
    },
    transform: jsonSchemaTransform,
  })

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof PlatformBusyError) {
      const busy = platformBusy(error)
      return reply.status(busy.status).send({ error: { code: busy.code, message: busy.message } })
    }
    if (error instanceof AppError) {
      return reply.status(error.status).send({ error: { code: error.code, message: error.message } })
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0]
      const where = first?.instancePath ? `${first.instancePath.replace(/^\//, '')}: ` : ''
      return reply.status(errorStatus.INVALID_INPUT).send({
        error: {
          code: ErrorCode.INVALID_INPUT,
          message: `入力内容が正しくありません。${where}${first?.message ?? ''}`,
        },
      })
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type).
    const { statusCode: status, message } = error as { statusCode?: number; message?: string }
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({
        error: { code: ErrorCode.INVALID_INPUT, message: `リクエストが正しくありません: ${message ?? ''}` },
      })
    }
    request.log.error({ err: error }, 'unhandled error')
    reportServerError(error, { requestId: String(request.id), route: request.routeOptions.url ?? '' })
    return reply.status(500).send({
      error: {
        code: ErrorCode.INTERNAL,
        message: `サーバーで予期しないエラーが発生しました（リクエストID: ${request.id}）。`,
      },
    })
  })

  const { apiKey } = opts.platform
  registerRequestGuard(app)
  registerRequestContext(app, opts.platform.lanes)
  registerAuth(app, {
    findShop: (domain) => findInstalledShop(db, domain),
    apiKey,
    apiSecret: opts.apiSecret,
    install:
      apiKey && opts.apiSecret
        ? createInstaller({
            db,
            apiKey,
            apiSecret: opts.apiSecret,
            adminOrigin: opts.platform.adminOrigin,
            fetch: opts.platform.fetch,
            onInstalled: installHook(app, opts),
            log: app.log,
          })
        : undefined,
  })
  registerPlanFeatures(app, { usageOf: (shop) => shopUsage(db, shop) })

  // The bare route the benchmark compares the API's throughput with.
  app.get('/health', { config: { auth: 'public' } }, () => ({ ok: true as const }))
  app.get('/app-admin/openapi.json', { schema: { hide: true }, config: { auth: 'public' } }, () =>
    app.swagger(),
  )
  subscriptionRoutes(app)
  contractActionRoutes(app, { mailer })
  contractDetailRoutes(app)
  contractEditRoutes(app)
  shopRoutes(app, { orderHistoryRecheckMs: opts.orderHistoryRecheckMs })
  cancellationReasonRoutes(app)
  productRoutes(app)
  themeRoutes(app)
  sellingPlanRoutes(app)
  boxRoutes(app)
  // The tiered features (ADR 0029): every route of each requires the shop's plan to include it.
  await withPlanFeature(app, 'analytics', (scope) => {
    reportRoutes(scope, opts.now ? { now: opts.now } : {})
    trafficRoutes(scope, opts.traffic)
  })
  webhookRoutes(app, {
    apiSecret: opts.apiSecret,
    platform: opts.platform,
    ...(opts.jobs ? { defer: webhookDeferrer(opts.jobs, opts.webhookJobs?.deferSeconds) } : {}),
  })
  await withPlanFeature(app, 'csvExport', (scope) =>
    exportRoutes(scope, opts.jobs ? { enqueue: exportEnqueuer(opts.jobs) } : {}),
  )
  await withPlanFeature(app, 'customerData', (scope) =>
    cdpRoutes(
      scope,
      opts.jobs
        ? { enqueueTagJob: tagJobEnqueuer(opts.jobs), enqueueExport: segmentExportEnqueuer(opts.jobs) }
        : {},
    ),
  )
  batchRoutes(app, {
    mailer,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.jobs ? { enqueue: batchEnqueuer(opts.jobs) } : {}),
  })
  // 設定, メールテンプレート and the shop's sender, プラン and eligibility (issue 16).
  mailTemplateRoutes(app, {
    mailer,
    from: opts.mailFrom ?? DEFAULT_MAIL_FROM,
    mailViewerUrl: opts.mailViewerUrl,
    now: opts.now,
  })
  settingsRoutes(app, opts.traffic)
  deliveryRoutes(app)
  shippingRoutes(app)
  thankYouRoutes(app)
  myPageRoutes(app, { mailer, ...(opts.now ? { now: opts.now } : {}) })
  appPlanRoutes(app)

  billingRoutes(app, opts.now ? { now: opts.now } : {})
  if (opts.apiSecret) internalBillingRoutes(app, { apiSecret: opts.apiSecret, mailer })
  if (opts.jobs) {
    await startExportJobs({
      jobs: opts.jobs,
      deps: { db, dataDir, mailer, log: app.log },
      ...opts.exportJobs,
    })
    await startMailJobs({ jobs: opts.jobs, mailer, log: app.log, ...opts.mailJobs })
    await startBatchJobs({ jobs: opts.jobs, app, mailer, ...opts.batchJobs })
    await startCdpJobs({ jobs: opts.jobs, app, mailer, dataDir, ...opts.cdpJobs })
    await startUpcomingNoticeJobs({
      jobs: opts.jobs,
      db,
      mailer,
      quote: billingEngine.quoteNextCycle,
      log: app.log,
      cron: opts.mailJobs?.cron ?? true,
    })
    await startMyPageJobs({
      jobs: opts.jobs,
      db,
      actions: createContractActions({
        mailer,
        db,
        adminOrigin: app.platformOptions.adminOrigin,
        log: app.log,
        clients: app.shopClients,
      }),
      log: app.log,
      cron: opts.mailJobs?.cron ?? true,
    })
    await startTrafficJobs({ jobs: opts.jobs, db, log: app.log, ...opts.trafficJobs })
    await startWebhookJobs({
      jobs: opts.jobs,
      db,
      clients: shopClients,
      log: app.log,
      ...(opts.webhookJobs?.pollingIntervalSeconds
        ? { pollingIntervalSeconds: opts.webhookJobs.pollingIntervalSeconds }
        : {}),
    })
    await startBillingJobs({
      jobs: opts.jobs,
      db,
      clients: shopClients,
      engine: billingEngine,
      log: app.log,
      ...opts.billingJobs,
    })
  }
  app.addHook('onClose', async () => {
    billingEngine.setScheduler(undefined)
  })
  if (!opts.mailer) app.addHook('onClose', async () => mailer.close())

  app.setNotFoundHandler((request, reply) => {
    // A browser opening a client-side route (/, /plans, ...) gets the SPA document, which holds
    // no shop data; any other miss (API calls send Accept: application/json) is a JSON 404. The
    // root is the document for any client that does not ask for JSON only (curl, a health probe).
    if (sendDocument && request.method === 'GET' && documentWanted(request.url, request.headers.accept)) {
      return sendDocument(request, reply)
    }
    return reply
      .status(404)
      .send({ error: { code: ErrorCode.NOT_FOUND, message: 'ページが見つかりません。' } })
  })
  const sendDocument = opts.webDist
    ? documentSender(opts.webDist, opts.embedded, opts.webSentryDsn ? { sentryDsn: opts.webSentryDsn } : {})
    : null
  if (opts.webDist && existsSync(join(opts.webDist, 'index.html'))) {
    // The built files but index.html, which is the document above (App Bridge, frame-ancestors).
    const root = opts.webDist
    await withRouteAuth(app, 'public', async (scope) => {
      await scope.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        allowedPath: (path) => path !== '/index.html',
        maxAge: '1h',
        immutable: false,
      })
    })
  }
  return app
}

const wantsHtml = (accept: string | undefined) => accept !== undefined && /\btext\/html\b/i.test(accept)
const documentWanted = (url: string, accept: string | undefined) =>
  wantsHtml(accept) ||
  (url.split('?', 1)[0] === '/' && !(accept !== undefined && /^\s*application\/json\s*$/i.test(accept)))

// Fastify takes a hop count at run time but its types do not: the same rule as a function.
const trustedProxies = (trust: BuildAppOptions['trustProxy']) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : (trust ?? false)
