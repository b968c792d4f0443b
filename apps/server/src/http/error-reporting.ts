import * as Sentry from '@sentry/node'
import { ERROR_REPORT_IGNORED, filterReportEvent, TRACES_SAMPLE_RATE } from '@teiki/domain'

// The server's error reporting (spec §8, §9): the official SDK (@sentry/node), started only
// when a DSN is configured (SENTRY_DSN), with the spec's filters and a tracing sample rate of
// 1. Without a DSN nothing is initialised and nothing is sent anywhere.

let enabled = false

export type ErrorReportingOptions = { dsn?: string | undefined; environment?: string; release?: string }

/** Starts reporting when `dsn` is set; answers whether it did. */
export function initServerErrorReporting(opts: ErrorReportingOptions): boolean {
  if (!opts.dsn) return false
  Sentry.init({
    dsn: opts.dsn,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    ignoreErrors: [...ERROR_REPORT_IGNORED],
    // No source lines and no local variables in reports: a handler's locals hold access
    // tokens, secrets and customers' data.
    includeLocalVariables: false,
    integrations: (defaults) =>
      defaults.filter((i) => i.name !== 'ContextLines' && i.name !== 'LocalVariablesAsync'),
    // Query strings hold shop secrets: the request's URL is sent without them.
    beforeSend: (event) => {
      if (event.request?.query_string) event.request.query_string = '[REDACTED]'
      if (event.request?.url) event.request.url = event.request.url.split('?')[0]
      return filterReportEvent(event)
    },
    ...(opts.environment ? { environment: opts.environment } : {}),
    ...(opts.release ? { release: opts.release } : {}),
  })
  enabled = true
  return true
}

/** Reports an unexpected server error (a 500) with the request id and route, never the URL's credentials. */
export function reportServerError(
  error: unknown,
  context: { requestId?: string; route?: string } = {},
): void {
  if (!enabled) return
  Sentry.captureException(error, {
    tags: {
      ...(context.requestId ? { request_id: context.requestId } : {}),
      ...(context.route ? { route: context.route } : {}),
    },
  })
}

/** Sends what is queued (before a process exits, and in tests). */
export async function flushErrorReports(timeoutMs = 2000): Promise<boolean> {
  return enabled ? Sentry.flush(timeoutMs) : true
}

/** Stops reporting (tests start and stop it). */
export async function closeErrorReporting(): Promise<void> {
  if (!enabled) return
  enabled = false
  await Sentry.close(2000)
}
