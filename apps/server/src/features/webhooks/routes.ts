import { AppError, unauthenticated } from '../../http/app-error.ts'
import type { AppInstance, PlatformOptions } from '../../http/app-instance.ts'
import { verifyWebhookHmac } from '../../http/hmac.ts'
import type { DeferRefresh } from './deferred.ts'
import { receiveWebhook } from './service.ts'

export type WebhookRouteOptions = {
  apiSecret?: string
  platform: PlatformOptions
  /** With a job queue: contract and order reads deferred to it (deferred.ts). */
  defer?: DeferRefresh
}

const header = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value

/**
 * POST /webhooks: the platform's deliveries. Outside /app-admin (no session auth: the HMAC
 * is the authentication). Registered as its own encapsulated plugin so its JSON parser can
 * keep the raw bytes the HMAC is computed over without changing parsing for the rest of the app.
 */
export function webhookRoutes(app: AppInstance, opts: WebhookRouteOptions): void {
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body)
    })

    scope.post('/webhooks', { schema: { hide: true }, config: { auth: 'webhook' } }, async (request) => {
      const raw = Buffer.isBuffer(request.body)
        ? request.body
        : Buffer.from(typeof request.body === 'string' ? request.body : '')
      const hmac = header(request.headers['x-shopify-hmac-sha256'])
      if (!opts.apiSecret || !verifyWebhookHmac(raw, hmac, opts.apiSecret)) {
        throw unauthenticated('Webhook の署名を確認できませんでした。')
      }
      const topic = header(request.headers['x-shopify-topic'])
      const shopDomain = header(request.headers['x-shopify-shop-domain'])
      const webhookId = header(request.headers['x-shopify-webhook-id'])
      if (!topic || !shopDomain || !webhookId) {
        throw new AppError('INVALID_INPUT', 'Webhook のヘッダー（トピック・ストア・ID）が不足しています。')
      }
      let payload: unknown
      try {
        payload = JSON.parse(raw.toString('utf8'))
      } catch {
        throw new AppError('INVALID_INPUT', 'Webhook の本文が JSON ではありません。')
      }
      if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
        throw new AppError('INVALID_INPUT', 'Webhook の本文が JSON オブジェクトではありません。')
      }
      const triggered = header(request.headers['x-shopify-triggered-at'])
      const triggeredAt = triggered ? new Date(triggered) : null
      const outcome = await receiveWebhook(
        {
          db: app.db,
          clients: app.shopClients,
          forgetShop: (domain) => app.forgetShop(domain),
          log: request.log,
          billing: app.billingEngine,
          ...(opts.defer ? { defer: opts.defer } : {}),
        },
        {
          webhookId,
          eventId: header(request.headers['x-shopify-event-id']) || null,
          topic,
          shopDomain,
          triggeredAt: triggeredAt && !Number.isNaN(triggeredAt.getTime()) ? triggeredAt : null,
          receivedAt: new Date(),
          payload: payload as Record<string, unknown>,
        },
      )
      request.log.info({ topic, shop: shopDomain, webhookId, outcome }, 'webhook')
      return { ok: true as const, outcome }
    })
  })
}
