import type { AttemptOutcome } from '../platform/attempt-outcome.ts'
import type { CycleRow } from './cycles-repo.ts'
import { retryInstant } from './schedule.ts'

// The rules of a 3-D Secure challenge (ADR 0011), apart from the I/O of settle-challenge.ts.

/**
 * How long the customer has to authenticate: until the shop's billing hour on the third
 * shop-local day after Teiki learnt of the challenge (and mailed the link), when the daily run
 * finds it. The platform documents no lifetime for `nextActionUrl`; merchants' apps report the
 * issuer's link lasting "a few hours or days", and the mail must promise a date, so Teiki sets
 * its own. Past it the cycle follows the payment dunning schedule with reason CHALLENGE_EXPIRED.
 */
export const CHALLENGE_WINDOW_DAYS = 3

/** The cycle's failure code when the customer did not authenticate in time (Teiki's, not the platform's). */
export const CHALLENGE_EXPIRED = 'CHALLENGE_EXPIRED'

/** What the history and the merchant read for an expired challenge. */
export const CHALLENGE_EXPIRED_MESSAGE =
  '期限までにカード会社による本人認証（3Dセキュア）が完了しませんでした'

/** The deadline of a challenge seen at `now`. */
export const challengeDeadline = (now: Date, billingHour: number, timeZone: string): Date =>
  retryInstant(now, CHALLENGE_WINDOW_DAYS, billingHour, timeZone)

/**
 * Whether an outcome may still move the cycle: an attempting or challenged cycle takes any; a
 * cycle whose challenge expired takes only a success (the customer authenticated after the
 * deadline but before dunning charged again: the order exists, so the cycle is paid). Whether
 * the outcome is of the cycle's current attempt is checked apart (outcomes.ts).
 */
export function takesOutcome(row: CycleRow, outcome: AttemptOutcome): boolean {
  if (row.status === 'attempting' || row.status === 'challenged') return true
  const expired = row.error_code === CHALLENGE_EXPIRED
  return (
    expired && outcome.kind === 'success' && (row.status === 'retry_scheduled' || row.status === 'failed')
  )
}
