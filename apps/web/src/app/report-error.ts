/**
 * Error reporting hook point. No reporting service is wired yet: reportable errors go to
 * `console.error`, where a service (Sentry or similar) can be attached later with the same
 * filter.
 */

export type ReportDecision = 'report' | 'ignore' | 'drop'

/** Messages the reporter ignores: browser noise, not app faults. */
const IGNORED_FRAGMENTS = ['Non-Error exception captured with keys', 'NetworkError'] as const
/** Messages the reporter drops before sending: server-side rendering artefacts. */
const DROPPED_FRAGMENTS = ['window is not defined'] as const

/** Decides what the reporter does with an error message (spec section 8). */
export function reportDecision(message: string): ReportDecision {
  if (IGNORED_FRAGMENTS.some((fragment) => message.includes(fragment))) return 'ignore'
  if (DROPPED_FRAGMENTS.some((fragment) => message.includes(fragment))) return 'drop'
  return 'report'
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
}
