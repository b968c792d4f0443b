/** The platform answered, but refused the operation (a mutation's userErrors). */
export class PlatformUserError extends Error {
  readonly userErrors: Array<{ code?: string | null; field?: string[] | null; message: string }>
  constructor(operation: string, userErrors: PlatformUserError['userErrors']) {
    super(`${operation}: ${userErrors.map((e) => e.message).join('; ')}`)
    this.userErrors = userErrors
  }
}

/** The platform could not be reached or kept failing (5xx, network, malformed answers). */
export class PlatformUnavailableError extends Error {
  readonly status: number | null
  constructor(message: string, status: number | null = null) {
    super(message)
    this.status = status
  }
}

/** A GraphQL `errors` answer other than throttling: a bug in our document or our access. */
export class PlatformQueryError extends Error {
  readonly errors: unknown
  constructor(operation: string, errors: unknown) {
    super(`${operation}: ${JSON.stringify(errors).slice(0, 500)}`)
    this.errors = errors
  }
}

export type BusyReason = 'deadline' | 'queue-full' | 'ended'

/**
 * A merchant's call that was never sent: its request's deadline passed while it waited for the
 * shop's rate budget, too many merchant calls of the shop were already waiting, or the request
 * was over. Nothing of it reached the platform.
 */
export class PlatformBusyError extends Error {
  readonly reason: BusyReason
  constructor(operation: string, reason: BusyReason) {
    super(`${operation}: not sent (${reason})`)
    this.reason = reason
  }
}

/**
 * The platform's top-level `ACCESS_DENIED`: the app's scopes, or a protected field's exemption
 * (themeFilesUpsert), do not cover a field of the call.
 */
export function isAccessDenied(error: unknown): boolean {
  return (
    error instanceof PlatformQueryError &&
    Array.isArray(error.errors) &&
    error.errors.some((e: { extensions?: { code?: unknown } }) => e?.extensions?.code === 'ACCESS_DENIED')
  )
}
