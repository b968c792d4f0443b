import type { PaymentInstrument } from '../records.ts'
import type { Rng } from './prng.ts'

/** Billing failures as the platform reports them (enum SubscriptionBillingAttemptErrorCode). */
export const failureCodes: ReadonlyArray<readonly [code: string, message: string]> = [
  ['PAYMENT_METHOD_DECLINED', 'Your card was declined.'],
  ['INSUFFICIENT_FUNDS', 'Your card has insufficient funds.'],
  ['EXPIRED_PAYMENT_METHOD', 'Your card has expired.'],
  ['PAYPAL_ERROR_GENERAL', 'PayPal was unable to process the payment.'],
  ['AUTHENTICATION_ERROR', 'The card requires authentication (3-D Secure).'],
]

/** Index into `failureCodes` that fits the payment method (an expired card fails as expired). */
export function failure(rng: Rng, instrument: PaymentInstrument, now: number): number {
  if (instrument.__typename === 'CustomerPaypalBillingAgreement') return 3
  const d = new Date(now)
  const expired =
    instrument.expiryYear < d.getUTCFullYear() ||
    (instrument.expiryYear === d.getUTCFullYear() && instrument.expiryMonth < d.getUTCMonth() + 1)
  if (expired) return 2
  return rng.weighted([0, 1, 4], [60, 30, 10])
}
