import { ErrorCode, errorStatus } from '@teiki/contract'
import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * For a GET that writes (the spec's `cdp-segment-delete`): browsers send GETs on their own —
 * a link or image of another site (the standalone secret sits in the page's URL and Referer),
 * a prefetch, a reload — and caches may replay them. The app calls it with fetch from its own
 * page, so the Fetch Metadata headers a browser adds tell the two apart: a top-level navigation,
 * an embedded resource, a prefetch or a request from another site is refused (403), as is a
 * HEAD. Clients that send no Fetch Metadata (tools, tests) pass on their credentials alone.
 */
export async function refuseUnsafeGet(request: FastifyRequest, reply: FastifyReply): Promise<void> {
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
  await reply
    .code(errorStatus.FORBIDDEN)
    .header('Cache-Control', 'no-store')
    .send({
      error: {
        code: ErrorCode.FORBIDDEN,
        message:
          'この操作はアプリの画面からのみ実行できます。セグメント一覧の削除ボタンから操作してください。',
      },
    })
}
