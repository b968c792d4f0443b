import { ZBillingRunSummary } from '@teiki/contract'
import { z } from 'zod'
import { sendUpcomingNotices } from '../features/mail-templates/upcoming-notice.ts'
import { AppError, unauthenticated } from '../http/app-error.ts'
import type { AppInstance } from '../http/app-instance.ts'
import { INTERNAL_HMAC_HEADER } from '../http/auth.ts'
import { tableRoutes } from '../http/contract-route.ts'
import { verifyWebhookHmac } from '../http/hmac.ts'
import type { Mailer } from '../mail/mailer.ts'
import { findInstalledShop } from '../platform/shops-repo.ts'
import { deliveryPrepDaysOperation } from './prep-days.ts'
import { runBilling } from './run.ts'
import { listRuns } from './runs-repo.ts'
import { getBillingSettings, putBillingSettings } from './settings.ts'
import { upcomingCharges } from './upcoming.ts'

export type BillingRouteOptions = {
  /** Clock for "today" (tests fix it). */
  now?: () => Date
}

/** Billing settings, upcoming charges and the run log (issue 5). */
export function billingRoutes(app: AppInstance, opts: BillingRouteOptions = {}): void {
  const route = tableRoutes(app, { tags: ['billing'] })
  const now = opts.now ?? (() => new Date())

  route('GET /billing-settings', '請求・再試行の設定', {
    handler: (request) => getBillingSettings(app.db, request.shop.id),
  })

  route('PUT /billing-settings', '請求・再試行の設定を保存', {
    errors: [400, 403],
    handler: async (request) => {
      // The prep days follow spec §5 wherever they are changed (also 設定's /settings).
      const current = await getBillingSettings(app.db, request.shop.id)
      if (current.deliveryPrepDays !== request.body.deliveryPrepDays) {
        const shop = (await findInstalledShop(app.db, request.shop.domain)) ?? request.shop
        const operation = await deliveryPrepDaysOperation(app.db, shop)
        if (!operation.updatable) throw new AppError('FORBIDDEN', operation.reason!)
      }
      return putBillingSettings(app.db, request.shop.id, request.body)
    },
  })

  route('GET /billing/upcoming', '今後の請求予定（日本時間の今日から N 日間）', {
    errors: [400],
    handler: (request) => upcomingCharges(app.db, request.shop, request.query, now()),
  })

  route('GET /billing/runs', '請求実行の履歴（新しい順）', {
    errors: [400],
    handler: async (request) => {
      const rows = await listRuns(app.db, request.shop.id, request.query.limit)
      return {
        runs: rows.map((r) => ({
          id: r.id,
          shop: request.shop.domain,
          now: r.run_at.toISOString(),
          trigger: r.trigger,
          startedAt: r.started_at.toISOString(),
          finishedAt: r.finished_at?.toISOString() ?? null,
          abortedAt: r.aborted_at?.toISOString() ?? null,
          due: r.due,
          attempted: r.attempted,
          succeeded: r.succeeded,
          failed: r.failed,
          skipped: r.skipped,
          alreadyBilled: r.already_billed,
          error: r.error,
        })),
      }
    },
  })
}

/** Body of POST /internal/billing/run (`npm run billing` while the app runs on the embedded database). */
export const ZInternalBillingRun = z.object({
  shop: z.string().min(1),
  now: z.iso.datetime({ offset: true }),
  timeoutMs: z.number().int().min(1).max(3_600_000).optional(),
  /** Also send the 次回請求のお知らせ due at `now` (the hourly job's work, at that moment). */
  notices: z.boolean().optional(),
})

/** The internal run's answer: the summary, and the notices sent when they were asked for. */
export const ZInternalBillingRunAnswer = ZBillingRunSummary.extend({ notices: z.number().int().optional() })

const INTERNAL_ROUTE = { schema: { hide: true }, config: { auth: 'internal' as const } }

/**
 * POST /internal/billing/run: one synchronous billing run, for `npm run billing` while this
 * app holds the embedded database. The run is made here rather than by the CLI over the PGlite
 * socket so that it shares this process's paced Admin client (one estimate of each shop's
 * point bucket, so the run and the app's own calls never overdraw it together) and its
 * emulator's webhooks land where the run waits for them. With `notices`, the 次回請求のお知らせ
 * due at `now` are sent after the run. Outside /app-admin: the caller is not a merchant. The
 * body is signed like a webhook (base64 HMAC-SHA256 with the app's client secret, which the CLI
 * reads from the same place as the app); anything else is 401.
 */
export function internalBillingRoutes(app: AppInstance, opts: { apiSecret: string; mailer: Mailer }): void {
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body)
    })
    scope.post('/internal/billing/run', INTERNAL_ROUTE, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = request.headers[INTERNAL_HMAC_HEADER]
      if (!verifyWebhookHmac(raw, typeof signature === 'string' ? signature : undefined, opts.apiSecret)) {
        throw unauthenticated('署名を確認できませんでした。')
      }
      let parsed: z.infer<typeof ZInternalBillingRun>
      try {
        parsed = ZInternalBillingRun.parse(JSON.parse(raw.toString('utf8')))
      } catch {
        throw new AppError('INVALID_INPUT', 'リクエストが正しくありません（shop と now が必要です）。')
      }
      const shop = await findInstalledShop(app.db, parsed.shop)
      if (!shop) throw new AppError('SHOP_NOT_FOUND', `ストア ${parsed.shop} はインストールされていません`)
      const summary = await runBilling({
        db: app.db,
        clients: app.shopClients,
        shop,
        now: new Date(parsed.now),
        engine: app.billingEngine,
        trigger: 'cli',
        wait: { timeoutMs: parsed.timeoutMs ?? 10 * 60_000 },
      })
      if (!parsed.notices) return reply.send(ZBillingRunSummary.parse(summary))
      const deps = { db: app.db, mailer: opts.mailer, quote: app.billingEngine.quoteNextCycle, log: app.log }
      const notices = await sendUpcomingNotices(deps, shop, new Date(parsed.now))
      return reply.send(ZInternalBillingRunAnswer.parse({ ...summary, notices }))
    })
  })
}
