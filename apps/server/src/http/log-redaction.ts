import { type FastifyRequest, LogController } from 'fastify'
import pino from 'pino'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the route's requests write no access log lines ("incoming request", "request
     * completed"); its errors are still logged (the error handler's 500s, warnings). For the
     * web pixel's ingest, thousands of identical hits a second (features/traffic/routes.ts).
     */
    accessLog?: boolean
  }
}

export const REDACTED = '[REDACTED]'

// Query parameters that are credentials: the standalone login's `secret`, the admin's
// `id_token`/`session`/`hmac`/`signature`, OAuth's `code`/`state`, and any `*token*`.
const SECRET_PARAMS =
  /([?&;](?:secret|id_token|session|hmac|signature|code|state|password|[a-z_]*token)=)[^&#\s"'<>]*/gi
// A bearer token wherever it is written (an error message quoting a header).
const BEARER = /\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*/gi
// The platform's access tokens (offline token, app secrets) by their prefixes.
const PLATFORM_TOKENS = /\b(shpat|shpca|shppa|shpss|shpua)_[A-Za-z0-9]+/g

/** `text` with every credential it carries in a URL query, a bearer header or a platform token replaced. */
export function redactText(text: string): string {
  return text
    .replace(SECRET_PARAMS, `$1${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(PLATFORM_TOKENS, `$1_${REDACTED}`)
}

/**
 * Pino paths censored wherever a log call passes them: request and response headers that
 * carry credentials (session token, cookies, the webhook and internal HMACs) and fields
 * that name a secret, one level deep in any logged object.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-shopify-hmac-sha256"]',
  'req.headers["x-teiki-hmac-sha256"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  '*.accessToken',
  '*.access_token',
  '*.apiSecret',
  '*.secret',
  '*.sessionToken',
  '*.idToken',
  '*.password',
]

/**
 * The request and error serializers of the app's logs: Fastify's own fields, with the URL and
 * the error's message and stack passed through `redactText` (the standalone page's every API
 * call has `?secret=` in its URL; an error may quote a URL or a header).
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactText(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    }
  },
  err(error: Error) {
    const serialized = pino.stdSerializers.err(error)
    if (typeof serialized.message === 'string') serialized.message = redactText(serialized.message)
    if (typeof serialized.stack === 'string') serialized.stack = redactText(serialized.stack)
    return serialized
  },
}

/** Fastify's access log lines, but for the routes that turned them off (`config.accessLog: false`). */
export const logController = new LogController({
  // `routeOptions` is absent on the requests answered before routing (they are logged).
  disableRequestLogging: (request) => request.routeOptions?.config?.accessLog === false,
})

/** Logger options for Fastify: the level, where to write (a file path: pino's destination; default stdout), redaction. */
export function loggerOptions(opts: { level: string; file?: string }) {
  return {
    level: opts.level,
    ...(opts.file ? { file: opts.file } : {}),
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: logSerializers,
  }
}
