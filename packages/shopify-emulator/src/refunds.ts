import { roundMoney } from './pricing.ts'
import type { OrderRecord } from './records.ts'

/** Money refunded of an order so far (its refunds' sum), rounded to the currency's unit. */
export function refundedOf(order: OrderRecord, currencyCode: string): number {
  let total = 0
  for (const r of order.refunds ?? []) total += r.amount
  return roundMoney(total, currencyCode)
}

/**
 * `Order.displayFinancialStatus` of an order the emulator made (every order is paid at once):
 * PAID, PARTIALLY_REFUNDED once some money went back, REFUNDED when all of it did.
 */
export function financialStatus(order: OrderRecord, currencyCode: string): string {
  const refunded = refundedOf(order, currencyCode)
  if (refunded <= 0) return 'PAID'
  return refunded >= order.totalPriceSet ? 'REFUNDED' : 'PARTIALLY_REFUNDED'
}
