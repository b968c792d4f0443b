import { ZErrorResponse, ZMyPageSubscriptions } from '@teiki/contract'
import type { FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createContractActions } from '../subscriptions/actions-service.ts'
import { myPageActionRoutes } from './action-routes.ts'
import { createSubscriberActions } from './actions.ts'
import { formToken } from './form-token.ts'
import { myPageHtml, type PageOptions, signInHtml } from './page.ts'
import { retentionOffers, saveRetentionOffer } from './retention.ts'
import { subscriberContracts } from './service.ts'
import { getMyPageSettings, putMyPageSettings } from './settings-service.ts'

/**
 * The proxy's root relative to the page the shopper is on (`''` on `/apps/teiki/my-page`,
 * `'../../'` after a form's post to `/apps/teiki/my-page/1/skip`): the forms' actions resolve
 * under the storefront's proxy path whatever the store's own root is, without trusting a path
 * from the request.
 */
function proxyRoot(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? ''
  const depth = path
    .replace(/^\/proxy\/?/, '')
    .split('/')
    .filter(Boolean).length
  return '../'.repeat(Math.max(0, depth - 1))
}

/** What the page needs besides the contracts: zone, proxy path, this customer's form token. */
export function pageOptions(
  request: FastifyRequest,
  customer: string,
  notice?: PageOptions['notice'],
  offer?: PageOptions['offer'],
): PageOptions {
  return {
    timeZone: request.shop.iana_timezone,
    root: proxyRoot(request),
    token: formToken(request.shop, customer),
    notice,
    offer,
  }
}

/**
 * マイページ through the platform's app proxy: the storefront's `/apps/teiki/…` reaches the app
 * as `/proxy/…` with the platform's signature (route auth `proxy`, http/app-proxy.ts) and the
 * signed-in customer. The answers are the subscriber's own and are never cached. The merchant's
 * 設定 › マイページ (which changes, the change lock) is an admin route beside them.
 */
export function myPageRoutes(app: AppInstance, opts: { mailer?: Mailer; now?: () => Date } = {}): void {
  const actions = createSubscriberActions({
    edits: { db: app.db, clients: app.shopClients, log: app.log, billing: app.billingEngine },
    actions: createContractActions({
      ...(opts.mailer ? { mailer: opts.mailer } : {}),
      db: app.db,
      adminOrigin: app.platformOptions.adminOrigin,
      log: app.log,
      clients: app.shopClients,
    }),
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  })
  myPageActionRoutes(app, actions)

  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>()
    scope.get(
      '/proxy/api/subscriptions',
      {
        config: { auth: 'proxy' },
        schema: {
          tags: ['my-page'],
          summary: 'マイページ: ログイン中のお客様の定期購入',
          response: { 200: ZMyPageSubscriptions, 401: ZErrorResponse },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store')
        return subscriberContracts(app.db, request.shop, request.proxyCustomer)
      },
    )
    // The page itself, rendered by the platform inside the shop's theme (application/liquid).
    scope.get(
      '/proxy/my-page',
      {
        config: { auth: 'proxy' },
        schema: { tags: ['my-page'], summary: 'マイページ（ストアのテーマ内に表示）' },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store').type('application/liquid; charset=utf-8')
        if (request.proxyCustomer === null) return signInHtml()
        const answer = await subscriberContracts(app.db, request.shop, request.proxyCustomer)
        return myPageHtml(answer, pageOptions(request, request.proxyCustomer))
      },
    )
  })

  const route = tableRoutes(app, { tags: ['settings'] })
  route('GET /my-page-settings', '設定 › マイページ（お客様ができる変更と受付の締切）', {
    handler: (request) => getMyPageSettings(app.db, request.shop.id),
  })
  route('PUT /my-page-settings', '設定 › マイページを保存', {
    errors: [400],
    handler: (request) => putMyPageSettings(app.db, request.shop.id, request.body),
  })
  route('GET /retention-offers', '解約理由ごとの解約防止オファーと結果（申請・提示・継続・継続売上）', {
    errors: [400],
    handler: (request) => retentionOffers(app.db, request.shop, request.query),
  })
  route('PUT /retention-offers/:id', '解約理由の解約防止オファーを設定（null で解除）', {
    errors: [400, 404],
    handler: (request) => saveRetentionOffer(app.db, request.shop, request.params.id, request.body.offer),
  })
}
