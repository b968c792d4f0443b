import { ErrorCode, errorStatus, hasControlCharacter } from '@teiki/contract'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from './app-error.ts'

/**
 * Longest request target accepted. The app's own URLs stay far below (a search with every
 * filter is ~300 characters); Node's header limit (16 KB) bounds real requests anyway, but
 * `inject` and proxies do not.
 */
export const MAX_URL_LENGTH = 4096

const BAD_URL = 'URL に使用できない文字が含まれています。'

/**
 * Why the request target cannot be served (Japanese), or null. The whole target is
 * percent-decoded once: a malformed escape or an invalid UTF-8 sequence is refused, and so is
 * any control character raw or encoded (`%00` in `?shop=` would otherwise reach the auth
 * lookup's SQL, which PostgreSQL refuses with an error).
 */
export function urlProblem(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return 'URL が長すぎます。'
  if (hasControlCharacter(url)) return BAD_URL
  let decoded: string
  try {
    decoded = decodeURIComponent(url.replaceAll('+', ' '))
  } catch {
    return 'URL のエンコードが正しくありません。'
  }
  return hasControlCharacter(decoded) ? BAD_URL : null
}

/**
 * The first onRequest hook (registered before authentication): no hostile URL reaches the
 * auth lookup or a handler. What it lets through is checked field by field by the routes'
 * schemas (packages/contract primitives).
 */
export function registerRequestGuard(app: FastifyInstance): void {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const problem = urlProblem(request.raw.url ?? '')
    done(problem ? new AppError('INVALID_INPUT', problem) : undefined)
  })
}

/**
 * Fastify's own refusals before routing (malformed escape in the path, a parameter longer than
 * `maxParamLength`), answered in the app's error shape instead of Fastify's.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ code: error.code }, 'request refused before routing')
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'URL のパラメータが長すぎます。'
      : 'URL の形式が正しくありません。'
  reply.status(errorStatus.INVALID_INPUT).send({ error: { code: ErrorCode.INVALID_INPUT, message } })
}
