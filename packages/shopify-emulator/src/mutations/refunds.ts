import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { idOf } from '../gid.ts'
import { readableOrNull } from '../order-access.ts'
import { roundMoney } from '../pricing.ts'
import type { OrderRecord, RefundRecord } from '../records.ts'
import { refundedOf } from '../refunds.ts'
import { findById, nextId } from '../store.ts'
import { orderPayload, refundPayload } from '../webhooks/payloads.ts'
import { lookup, type UserError, userError } from './common.ts'

/** RefundInput as 2025-04 has it (refundDuties and discrepancyReason are not emulated). */
type RefundInput = {
  orderId: string
  currency?: string | null
  note?: string | null
  notify?: boolean | null
  shipping?: { amount?: string | null; fullRefund?: boolean | null } | null
  refundLineItems?: Array<{ lineItemId: string; quantity: number; restockType?: string | null }> | null
  transactions?: Array<{
    amount: string
    gateway: string
    kind: string
    orderId: string
    parentId?: string | null
  }> | null
}

const fail = (errors: UserError[]) => ({ order: null, refund: null, userErrors: errors })

/** The contract's lines are the order's line items (resolvers/orders.ts): id = order id × 10 + position. */
function lineQuantities(ctx: Context, order: OrderRecord): Map<number, number> {
  const contract = order.contractId === null ? undefined : findById(ctx.shop.contracts, order.contractId)
  return new Map((contract?.lines ?? []).map((l, i) => [order.id * 10 + i, l.quantity]))
}

/** What the input asks to refund, or the userErrors the platform answers (nothing is changed then). */
function validate(ctx: Context, order: OrderRecord, input: RefundInput): UserError[] | number {
  const currency = ctx.shop.info.currencyCode
  const errors: UserError[] = []
  if (input.currency && input.currency !== currency)
    errors.push(
      userError(['currency'], `Currency ${input.currency} does not match the order currency ${currency}`),
    )
  let amount = 0
  for (const [i, t] of (input.transactions ?? []).entries()) {
    const at = ['transactions', String(i)]
    const value = Number(t.amount)
    if (t.kind !== 'REFUND') errors.push(userError([...at, 'kind'], 'Transaction kind must be refund'))
    if (idOf(t.orderId, 'Order') !== order.id)
      errors.push(userError([...at, 'orderId'], 'Transaction must belong to the refunded order'))
    if (!Number.isFinite(value) || value <= 0 || roundMoney(value, currency) !== value)
      errors.push(userError([...at, 'amount'], 'Amount must be greater than 0'))
    else amount += value
  }
  const lines = lineQuantities(ctx, order)
  for (const [i, l] of (input.refundLineItems ?? []).entries()) {
    const bought = lines.get(idOf(l.lineItemId, 'LineItem') ?? -1)
    if (bought === undefined)
      errors.push(userError(['refundLineItems', String(i), 'lineItemId'], 'Line item does not exist'))
    else if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > bought)
      errors.push(
        userError(
          ['refundLineItems', String(i), 'quantity'],
          'Quantity cannot refund more items than were purchased',
        ),
      )
  }
  const nothing = !input.transactions?.length && !input.refundLineItems?.length && !input.shipping
  if (nothing) errors.push(userError(null, 'A refund needs a transaction, a line item or shipping'))
  amount = roundMoney(amount, currency)
  const refundable = roundMoney(order.totalPriceSet - refundedOf(order, currency), currency)
  if (amount > refundable)
    errors.push(
      userError(
        ['transactions'],
        `Refund amount (${amount} ${currency}) is greater than the net payment received (${refundable} ${currency})`,
      ),
    )
  return errors.length > 0 ? errors : amount
}

function refundCreate(ctx: Context, input: RefundInput) {
  // An order older than the app may read (no read_all_orders) is one it cannot name either.
  const order = readableOrNull(ctx, lookup(ctx.shop.orders, input.orderId, 'Order'))
  if (!order) return fail([userError(['orderId'], 'Order does not exist')])
  const amount = validate(ctx, order, input)
  if (typeof amount !== 'number') return fail(amount)
  const now = ctx.now()
  const refund: RefundRecord = {
    id: nextId(ctx.shop, 'Refund', 900_000_001),
    orderId: order.id,
    createdAt: now,
    note: input.note ?? null,
    amount,
  }
  order.refunds = [...(order.refunds ?? []), refund]
  order.updatedAt = Math.max(now, order.updatedAt + 1)
  ctx.store.changed()
  // The platform tells apps of both: the refund, and the order it changed.
  const lineItems = (input.refundLineItems ?? []).map((l) => ({
    lineItemId: idOf(l.lineItemId, 'LineItem')!,
    quantity: l.quantity,
    restockType: l.restockType ?? 'NO_RESTOCK',
  }))
  const gateway = input.transactions?.[0]?.gateway ?? 'manual'
  ctx.runtime.emit(ctx.shop, 'refunds/create', refundPayload(ctx.shop, refund, { lineItems, gateway }))
  const contract = order.contractId === null ? undefined : findById(ctx.shop.contracts, order.contractId)
  ctx.runtime.emit(ctx.shop, 'orders/updated', orderPayload(ctx.shop, order, contract))
  return { order, refund, userErrors: [] }
}

export const refundMutations: ResolverMap = {
  Mutation: {
    refundCreate: (_s, args: { input: RefundInput }, ctx: Context) => refundCreate(ctx, args.input),
  },
}
