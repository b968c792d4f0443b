import type { BillingSettings } from '@teiki/contract'
import {
  deliveryDateOf,
  type nextOrderDates,
  orderAttributes,
  renewalDeliveryDate,
  toZonedDate,
} from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import { deliverySettingsOf } from '../features/delivery/service.ts'
import { setOrderAttributes } from '../platform/operations/order-update.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { orderContentOf } from './order-content.ts'
import type { MirroredContract } from './repo.ts'
import { getBillingSettings } from './settings.ts'

/**
 * The shop's rules for the next order's dates (domain `nextOrderDates`): its days without
 * delivery, its preparation days and its zone — what this file's renewals use, for the screens
 * that show the next order before billing makes it (the thank-you block, マイページ).
 */
export async function nextOrderRules(
  db: DbClient,
  shop: ShopRow,
): Promise<Parameters<typeof nextOrderDates>[1]> {
  const closed = await deliverySettingsOf(db, shop.id)
  const { deliveryPrepDays } = await getBillingSettings(db, shop.id)
  return { closed, prepDays: deliveryPrepDays, timeZone: shop.iana_timezone }
}

/** What the order's note attributes became: how many were written, or why none were. */
export type OrderAttributesOutcome = { written: number } | { error: string }

/**
 * A renewal's order carries what the warehouse reads (spec §3 Settings; issue 25): the
 * contract's attributes (配送時間帯 …), this order's お届け予定日 (the contract's, which the
 * merchant may have moved in 契約詳細, when it is not before the billing day; else the billing
 * day plus the preparation days past days without delivery), the slot's carrier code, 定期回数, the merchant's 注文メモ属性 and the
 * 出荷SKU after SKU変換; written on the order the platform created (orderUpdate replaces the
 * list, so running it again writes the same). The contract's own attributes are not touched.
 * A refusal does not undo the charge: it is logged and told in the history.
 */
export async function writeOrderAttributes(
  ctx: EngineContext,
  shop: ShopRow,
  input: {
    orderId: string
    row: CycleRow
    before: MirroredContract
    cycle: number
    settings: BillingSettings
  },
): Promise<OrderAttributesOutcome> {
  const { row, before, cycle } = input
  try {
    const delivery = await deliverySettingsOf(ctx.db, shop.id)
    const content = await orderContentOf(ctx.db, shop.id)
    // The contract's date is this order's unless it is before the billing day (the first
    // purchase's date, chosen at the cart, is still on the contract at the first renewal).
    const billingDay = toZonedDate(row.due_at, shop.iana_timezone)
    const deliveryDate = renewalDeliveryDate(
      delivery,
      billingDay,
      input.settings.deliveryPrepDays,
      deliveryDateOf(before.customAttributes),
    )
    const attributes = orderAttributes({
      contractAttributes: before.customAttributes,
      cycle,
      deliveryDate,
      carrier: delivery.carrier,
      noteAttributes: content.noteAttributes,
      skuConversions: content.skuConversions,
      lines: before.lines,
    })
    const written = await setOrderAttributes(ctx.clientFor(shop), input.orderId, attributes)
    return { written: written.length }
  } catch (error) {
    ctx.log.warn({ err: error, shop: shop.domain, orderId: input.orderId }, 'order attributes not written')
    return { error: error instanceof Error ? error.message : String(error) }
  }
}
