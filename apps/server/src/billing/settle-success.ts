import type { BillingSettings } from '@teiki/contract'
import {
  DELIVERY_DATE_ATTRIBUTE,
  deliveryDateFor,
  deliveryDateOf,
  type LineRepricing,
  TERMINAL_STATUSES,
  withAttribute,
} from '@teiki/domain'
import type { ShopRow } from '../features/shops/repo.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { idFromGid, lineIdOf, toGid } from '../platform/gid.ts'
import type {
  PlatformBillingAttempt,
  PlatformBillingOrder,
} from '../platform/operations/subscription-billing-attempt.ts'
import { fetchSubscriptionContract } from '../platform/operations/subscription-contract.ts'
import { setContractNextBillingDate } from '../platform/operations/subscription-contract-next-billing-date.ts'
import { activateSubscriptionContract } from '../platform/operations/subscription-contract-status.ts'
import type { PlatformContract } from '../platform/operations/subscription-contracts-page.ts'
import { editContractThroughDraft } from '../platform/operations/subscription-draft.ts'
import { upsertOrder } from '../sync/mirror-repo.ts'
import { orderRecord } from '../sync/records.ts'
import { nextCyclePrices } from './cycle-prices.ts'
import type { CycleRow, CycleStatus } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { orderMail } from './mail.ts'
import { expireSubscriptionContract } from './platform.ts'
import { orderCount } from './repo.ts'
import { scheduleAfter } from './schedule.ts'
import { commitSettlement, type SettlementEvent, type TrackedContract, trackContract } from './settlement.ts'

/** What a success did to the contract, for the history and the order mail. */
type Advance = { nextAt: Date | null; delivery: string | null; expired: boolean; repriced: LineRepricing[] }

const NOT_ADVANCED: Advance = { nextAt: null, delivery: null, expired: false, repriced: [] }

/**
 * A charge succeeded: the order is mirrored (the order count, and so maxCycles, follows from
 * it), the contract moves on to its next cycle (advanceContract) and the cycle, its history
 * and the run's count are written; the path that wrote them sends the order mail.
 */
export async function settleSuccess(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  settings: BillingSettings,
): Promise<CycleStatus> {
  const order = attempt.order!
  const client = ctx.clientFor(shop)
  // The order first: the order count (and so maxCycles) follows from the orders mirror.
  await upsertOrder(ctx.db, shop.id, orderRecord(order, row.contract_id))
  const cycle = await orderCount(ctx.db, shop.id, row.contract_id)

  const before = await fetchSubscriptionContract(client, toGid('SubscriptionContract', row.contract_id))
  const state = trackContract(before)
  const advance =
    before && !TERMINAL_STATUSES.has(before.status)
      ? await advanceContract(ctx, { shop, row, client, before, state, cycle, settings })
      : NOT_ADVANCED
  const amount = order.totalPriceSet.shopMoney
  const { nextAt, delivery, expired } = advance
  const mail = orderMail(ctx, shop, row, { orderName: order.name, amount, nextAt, delivery, expired })
  const won = await commitSettlement(
    ctx,
    shop,
    row,
    state.contract(),
    {
      status: 'succeeded',
      orderId: idFromGid(order.id),
      amount: amount.amount,
      currencyCode: amount.currencyCode,
      cycleIndex: cycle,
    },
    successEvents(row, attempt, order, cycle, advance),
    {},
    mail,
  )
  if (won) await mail.deliver()
  return 'succeeded'
}

/**
 * The contract after a paid cycle: a FAILED one is reactivated; at maxCycles it expires;
 * otherwise its next billing date follows the schedule from the cycle's due instant, and one
 * draft moves the delivery date (on contracts that carry お届け予定日) and the next cycle's prices.
 */
async function advanceContract(
  ctx: EngineContext,
  input: {
    shop: ShopRow
    row: CycleRow
    client: AdminClient
    before: PlatformContract
    state: TrackedContract
    cycle: number
    settings: BillingSettings
  },
): Promise<Advance> {
  const { shop, row, client, before, state, cycle } = input
  const gid = toGid('SubscriptionContract', row.contract_id)
  const tz = shop.iana_timezone
  if (before.status === 'FAILED') state.status(await activateSubscriptionContract(client, gid))
  const maxCycles = before.billingPolicy.maxCycles
  if (maxCycles !== null && maxCycles !== undefined && cycle >= maxCycles) {
    state.status(await expireSubscriptionContract(client, gid))
    return { ...NOT_ADVANCED, expired: true }
  }
  const nextAt = scheduleAfter(before, row.due_at, tz)
  if (!before.nextBillingDate || new Date(before.nextBillingDate).getTime() !== nextAt.getTime()) {
    state.status(await setContractNextBillingDate(client, gid, nextAt))
  }
  // The delivery date moves with the schedule only on contracts that carry one: a
  // contract without お届け予定日 belongs to a shop that does not promise dates.
  const currentDelivery = deliveryDateOf(before.customAttributes)
  let delivery: string | null = null
  let attributes: ReturnType<typeof withAttribute> | null = null
  if (currentDelivery !== null) {
    delivery = deliveryDateFor(nextAt, input.settings.deliveryPrepDays, tz)
    if (delivery !== currentDelivery) {
      attributes = withAttribute(before.customAttributes, DELIVERY_DATE_ATTRIBUTE, delivery)
    }
  }
  // The next charge is cycle + 1: its prices from the lines' pricing policies.
  const repriced = await nextCyclePrices(ctx, shop, row, before, cycle + 1)
  // One draft for both: a commit is three calls however much it changes.
  if (attributes !== null || repriced.length > 0) {
    await commitNextCycle(client, gid, before, state, attributes, repriced)
  }
  return { nextAt, delivery, expired: false, repriced }
}

async function commitNextCycle(
  client: AdminClient,
  gid: string,
  before: PlatformContract,
  state: TrackedContract,
  attributes: ReturnType<typeof withAttribute> | null,
  repriced: LineRepricing[],
): Promise<void> {
  const committed = await editContractThroughDraft(client, gid, async (draft) => {
    if (attributes !== null) await draft.update({ customAttributes: attributes })
    for (const r of repriced) await draft.updateLine(r.lineId, { currentPrice: r.to })
  })
  const prices = new Map(repriced.map((r) => [r.lineId, r.to]))
  state.committed(committed, {
    ...(attributes !== null ? { customAttributes: attributes } : {}),
    ...(prices.size > 0
      ? {
          lines: {
            ...before.lines,
            nodes: before.lines.nodes.map((l) => {
              const to = prices.get(l.id)
              return to === undefined ? l : { ...l, currentPrice: { ...l.currentPrice, amount: to } }
            }),
          },
        }
      : {}),
  })
}

/** `billed` with what the success did, and a `line_price_changed` per line repriced for the next cycle. */
function successEvents(
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  order: PlatformBillingOrder,
  cycle: number,
  advance: Advance,
): SettlementEvent[] {
  const amount = order.totalPriceSet.shopMoney
  return [
    {
      type: 'billed',
      occurredAt: order.createdAt,
      payload: {
        amount: amount.amount,
        currencyCode: amount.currencyCode,
        cycle,
        orderId: idFromGid(order.id),
        attemptId: idFromGid(attempt.id),
        cycleDate: row.cycle_date,
        nextBillingDate: advance.nextAt?.toISOString() ?? null,
        nextDeliveryDate: advance.delivery,
        expired: advance.expired,
      },
    },
    ...advance.repriced.map((r) => ({
      type: 'line_price_changed',
      occurredAt: order.createdAt,
      payload: {
        lineId: lineIdOf(r.lineId),
        from: r.from,
        to: r.to,
        cycle: cycle + 1,
        source: 'pricing_policy',
      },
    })),
  ]
}
