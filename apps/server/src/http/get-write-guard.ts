import { ErrorCode, errorStatus } from '@teiki/contract'
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'

/**
 * The one guard of every GET that writes (the spec's verbs: `cdp-segment-delete`,
 * `free-shipping-profile/update`). Browsers send GETs on their own — a link or image of another
 * site (the standalone secret sits in the page's URL and Referer), a prefetch, a reload — and
 * caches may replay them. The app calls these with fetch from its own page, so the Fetch
 * Metadata headers a browser adds tell the two apart: a top-level navigation, an embedded
 * resource, a prefetch or a request from another site is refused (403), as is a HEAD (no HEAD
 * route is made). Clients that send no Fetch Metadata (tools, tests) pass on their credentials
 * alone. Every answer is `no-store`. `test/get-writes.test.ts` holds each such route to it.
 */
export function stateChangingGet(action: string) {
  return {
    // No HEAD twin: Fastify would run the handler for a HEAD too, and a HEAD must not write.
    exposeHeadRoute: false,
    onRequest: (request: FastifyRequest, reply: FastifyReply) => refuseUnsafeGet(request, reply, action),
    onSend: noStore,
  } as const
}

const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('Cache-Control', 'no-store')
  done(null, payload)
}

async function refuseUnsafeGet(request: FastifyRequest, reply: FastifyReply, action: string): Promise<void> {
  const site = request.headers['sec-fetch-site']
  const mode = request.headers['sec-fetch-mode']
  const dest = request.headers['sec-fetch-dest']
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose
  const unsafe =
    request.method !== 'GET' ||
    (site !== undefined && site !== 'same-origin') ||
    (mode !== undefined && mode !== 'cors' && mode !== 'same-origin') ||
    (dest !== undefined && dest !== 'empty') ||
    (typeof purpose === 'string' && /prefetch|prerender/i.test(purpose))
  if (!unsafe) return
  await reply.code(errorStatus.FORBIDDEN).send({
    error: {
      code: ErrorCode.FORBIDDEN,
      message: `この操作はアプリの画面からのみ実行できます。${action}から操作してください。`,
    },
  })
}
