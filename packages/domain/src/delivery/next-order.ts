import { toZonedDate } from '../format/dates.ts'
import { type DeliverySettings, renewalDeliveryDate } from './calendar.ts'

/**
 * A contract's next order as billing will make it: billed on the contract's next billing day (in
 * the shop's calendar), delivered on the お届け予定日 `renewalDeliveryDate` gives — the date
 * billing writes on that order (billing/order-attributes.ts) and 出荷予定 lists it by. The
 * thank-you block and the subscriber's マイページ read it from here: one number everywhere.
 * None for a contract that will not bill (not ACTIVE, or no next billing date).
 */
export function nextOrderDates(
  contract: { status: string; nextBillingAt: Date | string | null; promisedDate: string | null },
  shop: {
    closed: Pick<DeliverySettings, 'closedYearEnd' | 'closedDates'>
    prepDays: number
    timeZone: string
  },
): { billingDate: string; deliveryDate: string } | null {
  if (contract.status !== 'ACTIVE' || contract.nextBillingAt === null) return null
  const billingDate = toZonedDate(contract.nextBillingAt, shop.timeZone)
  return {
    billingDate,
    deliveryDate: renewalDeliveryDate(shop.closed, billingDate, shop.prepDays, contract.promisedDate),
  }
}
