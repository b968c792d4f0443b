import type { PaymentInstrument } from '@teiki/contract'
import type { PlatformPaymentInstrument } from '../../platform/operations/shared-fragments.ts'

/** A payment instrument as the platform serves it (PaymentInstrumentFields); undefined without a payment method. */
export type PlatformInstrument = PlatformPaymentInstrument | undefined

/** The instrument as the app serves it: card (with expiry judged on the Tokyo calendar), PayPal or wallet. */
export function paymentInstrument(instrument: PlatformInstrument, now: Date): PaymentInstrument {
  if (!instrument) return { kind: 'none' }
  if ('brand' in instrument) {
    return {
      kind: 'card',
      brand: instrument.brand,
      lastDigits: instrument.lastDigits,
      expiryMonth: instrument.expiryMonth,
      expiryYear: instrument.expiryYear,
      isExpired: isCardExpired(instrument.expiryMonth, instrument.expiryYear, now),
    }
  }
  if ('paypalAccountEmail' in instrument)
    return { kind: 'paypal', email: instrument.paypalAccountEmail ?? null }
  if (instrument.__typename === 'CustomerShopPayAgreement' && 'name' in instrument) {
    return { kind: 'wallet', name: instrument.name ?? null }
  }
  return { kind: 'none' }
}

const tokyoMonth = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Asia/Tokyo',
  year: 'numeric',
  month: 'numeric',
})

/** A card is valid through the last day of its expiry month, judged on the Tokyo calendar. */
export function isCardExpired(expiryMonth: number, expiryYear: number, now: Date): boolean {
  const parts = tokyoMonth.formatToParts(now)
  const year = Number(parts.find((p) => p.type === 'year')?.value)
  const month = Number(parts.find((p) => p.type === 'month')?.value)
  return year > expiryYear || (year === expiryYear && month > expiryMonth)
}
