import {
  ERROR_REPORT_IGNORED,
  filterReportEvent,
  type ReportDecision,
  reportDecision,
  TRACES_SAMPLE_RATE,
} from '@teiki/domain/error-reporting'

/**
 * The browser's error reporting (spec §8): with a DSN (the server writes it into the page as
 * `<meta name="teiki-sentry-dsn">` when SENTRY_DSN_WEB is set) errors go to that
 * Sentry-compatible service through the official SDK (@sentry/react, loaded only then); without
 * one nothing is sent and reportable errors are written to the console. The spec's filters
 * (packages/domain/src/error-reporting) apply both to what the app reports and to what the SDK
 * catches by itself (unhandled errors and rejections).
 */

export type { ReportDecision }
export { reportDecision }

type Capture = (error: unknown, context?: string) => void
let capture: Capture | null = null
/** Reports made before the SDK finished loading (the session is read first thing). */
let pending: Array<[unknown, string | undefined]> | null = []

/** The DSN the page was served with, or null. */
export function pageDsn(
  doc: Pick<Document, 'querySelector'> | undefined = globalThis.document,
): string | null {
  const content = doc?.querySelector('meta[name="teiki-sentry-dsn"]')?.getAttribute('content')
  return content && content.trim() !== '' ? content : null
}

/** Starts the SDK when the page has a DSN; call first thing. Resolves once it runs (or at once without a DSN). */
export async function initErrorReporting(): Promise<void> {
  const dsn = pageDsn()
  if (!dsn) {
    pending = null
    return
  }
  const Sentry = await import('@sentry/react')
  Sentry.init({
    dsn,
    tracesSampleRate: TRACES_SAMPLE_RATE,
    integrations: [Sentry.browserTracingIntegration()],
    ignoreErrors: [...ERROR_REPORT_IGNORED],
    beforeSend: (event) => filterReportEvent(event),
  })
  capture = (error, context) => {
    Sentry.captureException(error, context ? { tags: { context: context.slice(0, 200) } } : undefined)
  }
  for (const [error, context] of pending ?? []) capture(error, context)
  pending = null
  // Says the SDK is running (its handlers catch unhandled errors from here on).
  document.documentElement.dataset.errorReporting = 'on'
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error)
  } catch {
    return String(error)
  }
}

export function reportError(error: unknown, context?: string): void {
  if (reportDecision(errorMessageOf(error)) !== 'report') return
  console.error(context ? `[teiki] ${context}` : '[teiki]', error)
  if (capture) capture(error, context)
  else pending?.push([error, context])
}
