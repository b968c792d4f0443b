import { ZErrorResponse, ZMyPageSubscriptions } from '@teiki/contract'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { myPageHtml, signInHtml } from './page.ts'
import { subscriberContracts } from './service.ts'

/**
 * マイページ through the platform's app proxy: the storefront's `/apps/teiki/…` reaches the app
 * as `/proxy/…` with the platform's signature (route auth `proxy`, http/app-proxy.ts) and the
 * signed-in customer. The answers are the subscriber's own and are never cached.
 */
export function myPageRoutes(app: AppInstance): void {
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
        return myPageHtml(answer, request.shop.iana_timezone)
      },
    )
  })
}
