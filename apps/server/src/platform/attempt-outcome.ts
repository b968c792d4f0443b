/**
 * What became of a billing attempt, read from the platform in one place (ADR 0011).
 *
 * In API 2025-04 every outcome field of `SubscriptionBillingAttempt` (`ready`, `errorCode`,
 * `errorMessage`, `processingError`, `order`, `nextActionUrl`) is deprecated "in favour of
 * `state`", a union that only later versions serve: PendingState, SuccessState { order },
 * FailedState { error }, ActionRequiredState { action: PaymentChallenge { nextActionUrl,
 * status } }. Every path that reads an outcome (the billing engine, the billing webhooks, the
 * contract's 決済履歴) asks `attemptOutcome`, so moving to `state` is this function and the
 * documents that select the fields.
 */
export type AttemptOutcome<O = unknown> =
  /** Still processing (`ready: false`): ask again later. */
  | { kind: 'pending' }
  /** An order was created: the customer was charged. */
  | { kind: 'success'; order: O }
  /** No order: the platform's error code (`UNKNOWN` when it gave none) and message. */
  | { kind: 'failed'; code: string; message: string }
  /** The issuer asks for 3-D Secure: the customer must authenticate at `nextActionUrl`. */
  | { kind: 'challenged'; nextActionUrl: string }

/** The deprecated outcome fields as a document selects them (`processingError` and `nextActionUrl` optional). */
export type AttemptOutcomeFields<O> = {
  ready: boolean
  errorCode: string | null
  errorMessage: string | null
  order: O | null
  nextActionUrl?: string | null
  processingError?: { code: string; message: string } | null
}

/** The code a failure without one is recorded with. */
export const UNKNOWN_FAILURE = 'UNKNOWN'

const present = (text: string | null | undefined): text is string => typeof text === 'string' && text !== ''

/**
 * The outcome the fields describe, in this order (the platform documents no combination of
 * them; the `state` union allows one state only):
 * 1. not `ready` → pending, whatever else is set;
 * 2. an `order` → success: an order exists, so the customer paid, and treating it as a failure
 *    would start dunning and charge the cycle twice;
 * 3. an error code (`errorCode`, else `processingError.code`) → failed: a challenge the customer
 *    failed keeps its `nextActionUrl`, so the error wins over the URL;
 * 4. a `nextActionUrl` → challenged;
 * 5. ready with nothing at all → failed with code UNKNOWN (the message, if any, kept), as the
 *    engine always treated it: a ready attempt without an order did not charge.
 */
export function attemptOutcome<O>(a: AttemptOutcomeFields<O>): AttemptOutcome<O> {
  if (!a.ready) return { kind: 'pending' }
  if (a.order !== null && a.order !== undefined) return { kind: 'success', order: a.order }
  const code = present(a.errorCode)
    ? a.errorCode
    : present(a.processingError?.code)
      ? a.processingError.code
      : null
  const message = a.errorMessage ?? a.processingError?.message ?? ''
  if (code !== null) return { kind: 'failed', code, message }
  if (present(a.nextActionUrl)) return { kind: 'challenged', nextActionUrl: a.nextActionUrl }
  return { kind: 'failed', code: UNKNOWN_FAILURE, message }
}
