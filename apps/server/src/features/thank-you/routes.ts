import { ZErrorResponse, ZThankYouBlock, ZThankYouQuery } from '@teiki/contract'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { thankYouBlock } from './service.ts'

const PATH = '/extensions/thank-you'

/**
 * The thank-you block's endpoint (extensions/teiki-thank-you). The block runs in the platform's
 * checkout sandbox on another origin and sends its session token as a bearer header, so the
 * route answers CORS (any origin: the token, not the origin, is the credential; no cookies).
 */
export function thankYouRoutes(app: AppInstance): void {
  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>()
    scope.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('access-control-allow-origin', '*')
      done(null, payload)
    })
    scope.options(PATH, { schema: { hide: true }, config: { auth: 'public' } }, async (_request, reply) =>
      reply
        .header('access-control-allow-methods', 'GET')
        .header('access-control-allow-headers', 'authorization')
        .header('access-control-max-age', '86400')
        .status(204)
        .send(),
    )
    scope.get(
      PATH,
      {
        config: { auth: 'checkout' },
        schema: {
          tags: ['settings'],
          summary: 'サンクスページのブロック: メッセージと定期便の次回お届け予定',
          querystring: ZThankYouQuery,
          response: { 200: ZThankYouBlock, 400: ZErrorResponse, 401: ZErrorResponse },
        },
      },
      async (request, reply) => {
        const orderId = /(\d+)$/.exec(request.query.order)![1]!
        reply.header('cache-control', 'no-store')
        return thankYouBlock(app.db, request.shop, orderId)
      },
    )
  })
}
