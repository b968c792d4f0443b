import type { BillingSettings } from '@teiki/contract'
import {
  DELIVERY_DATE_ATTRIBUTE,
  deliveryDateOf,
  type LineRepricing,
  nextDeliveryDate,
  TERMINAL_STATUSES,
  toZonedDate,
  withAttribute,
} from '@teiki/domain'
import { deliverySettingsOf } from '../features/delivery/service.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { PlatformUserError } from '../platform/errors.ts'
import { idFromGid, lineIdOf, toGid } from '../platform/gid.ts'
import type {
  PlatformBillingAttempt,
  PlatformBillingOrder,
} from '../platform/operations/contract-fragments.ts'
import { setContractNextBillingDate } from '../platform/operations/subscription-contract-next-billing-date.ts'
import {
  activateSubscriptionContract,
  type ContractStatusResult,
} from '../platform/operations/subscription-contract-status.ts'
import { type DraftInput, editContractThroughDraft } from '../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import type { ContractPatch } from '../sync/contracts-repo.ts'
import { carryLinePricing } from '../sync/line-pricing-repo.ts'
import { upsertOrder } from '../sync/mirror-repo.ts'
import { orderRecord } from '../sync/records.ts'
import { nextCyclePrices, type PricesForNext } from './cycle-prices.ts'
import type { CycleRow, CycleStatus } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { orderMail } from './mail.ts'
import { type OrderAttributesOutcome, writeOrderAttributes } from './order-attributes.ts'
import { expireSubscriptionContract } from './platform.ts'
import { type MirroredContract, mirroredContract, orderCount } from './repo.ts'
import { scheduleAfter } from './schedule.ts'
import { commitSettlement, type MirrorWrite, patchedContract, type SettlementEvent } from './settlement.ts'

/** What a success did to the contract, for the history, the mirror and the order mail. */
type Advance = {
  nextAt: Date | null
  delivery: string | null
  expired: boolean
  repriced: LineRepricing[]
  /** The last follow-up's answer, laid over the mirrored row; null when nothing was asked. */
  patch: ContractPatch | null
  /** The lines' policies the next cycle was priced with (kept on the contract for the next charge). */
  pricing: PricesForNext | null
}

const NOT_ADVANCED: Advance = {
  nextAt: null,
  delivery: null,
  expired: false,
  repriced: [],
  patch: null,
  pricing: null,
}

/**
 * A charge succeeded: the order is mirrored (the order count, and so maxCycles, follows from
 * it), the contract moves on to its next cycle (advanceContract) and the cycle, its history
 * and the run's count are written; the path that wrote them sends the order mail.
 *
 * The contract is taken from the mirror, not read again: the pre-charge check (pre-charge.ts)
 * found the mirror equal to the platform when the charge was asked, and the follow-ups'
 * answers (status, next billing date, updatedAt, revision) are laid over the mirrored row. A
 * draft's attributes are the platform's own (the draft copies the contract), never the mirror's.
 */
export async function settleSuccess(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  settings: BillingSettings,
): Promise<CycleStatus> {
  const order = attempt.order!
  // The order first: the order count (and so maxCycles) follows from the orders mirror.
  await upsertOrder(ctx.db, shop.id, orderRecord(order, row.contract_id))
  const cycle = await orderCount(ctx.db, shop.id, row.contract_id)
  const before = await mirroredContract(ctx.db, shop.id, row.contract_id)
  // The contract's next cycle and the order's note attributes are independent calls: made side
  // by side, so the order's attributes add no round trip to a settlement. Both before the
  // commit: a settlement cut off here is applied again, and writes the same.
  const [advance, attributes] = await Promise.all([
    before && !TERMINAL_STATUSES.has(before.status)
      ? advanceContract(ctx, { shop, row, client: ctx.clientFor(shop), before, cycle, settings })
      : NOT_ADVANCED,
    before ? writeOrderAttributes(ctx, shop, { orderId: order.id, row, before, cycle, settings }) : null,
  ])
  const amount = order.totalPriceSet.shopMoney
  const { nextAt, delivery, expired } = advance
  const mail = orderMail(ctx, shop, row, { orderName: order.name, amount, nextAt, delivery, expired })
  const won = await commitSettlement(
    ctx,
    shop,
    row,
    successWrite(row.contract_id, before, advance),
    {
      status: 'succeeded',
      orderId: idFromGid(order.id),
      amount: amount.amount,
      currencyCode: amount.currencyCode,
      cycleIndex: cycle,
    },
    successEvents(row, attempt, order, cycle, advance, attributes),
    {},
    mail,
  )
  if (won) await mail.deliver()
  return 'succeeded'
}

/**
 * The mirror write of a success: the lines' policies carried to the new updatedAt (when they
 * were true at the state the mirror holds), then the patch.
 */
function successWrite(
  contractId: string,
  before: MirroredContract | undefined,
  advance: Advance,
): MirrorWrite {
  const patch = patchedContract(contractId, advance.patch)
  return async (tx, shopId) => {
    const { pricing } = advance
    if (before && advance.patch && pricing) {
      const prices = new Map(advance.repriced.map((r) => [r.lineId, r.to]))
      const lines = pricing.lines.map((l) => ({ ...l, currentPrice: prices.get(l.id) ?? l.currentPrice }))
      await carryLinePricing(tx, shopId, contractId, lines, pricing.state, advance.patch)
    }
    return patch(tx, shopId)
  }
}

type Advancing = {
  shop: ShopRow
  row: CycleRow
  client: AdminClient
  before: MirroredContract
  cycle: number
  settings: BillingSettings
}

/** A follow-up's answer as the mirror takes it; a paid cycle also leaves the payment SUCCEEDED. */
const patchOf = (r: ContractStatusResult): ContractPatch => ({
  status: r.status,
  nextBillingDate: r.nextBillingDate,
  updatedAt: r.updatedAt,
  revisionId: r.revisionId,
  lastPaymentStatus: 'SUCCEEDED',
})

/**
 * The contract after a paid cycle: a FAILED one is reactivated; at maxCycles it expires;
 * otherwise its next billing date follows the schedule from the cycle's due instant. When the
 * delivery date (on contracts that carry お届け予定日) or the next cycle's prices move too, one
 * draft carries all of it, the next billing date included; else one setNextBillingDate.
 */
async function advanceContract(ctx: EngineContext, input: Advancing): Promise<Advance> {
  const { shop, row, client, before, cycle } = input
  const gid = toGid('SubscriptionContract', row.contract_id)
  const tz = shop.iana_timezone
  let last: ContractStatusResult | null = null
  if (before.status === 'FAILED') last = await activateSubscriptionContract(client, gid)
  const maxCycles = before.billingPolicy.maxCycles
  if (maxCycles !== null && maxCycles !== undefined && cycle >= maxCycles) {
    last = await expireSubscriptionContract(client, gid)
    return { ...NOT_ADVANCED, expired: true, patch: patchOf(last) }
  }
  const nextAt = scheduleAfter(before, row.due_at, tz)
  // The delivery date moves with the schedule only on contracts that carry one: a
  // contract without お届け予定日 belongs to a shop that does not promise dates.
  const currentDelivery = deliveryDateOf(before.customAttributes)
  // 配送設定's days without delivery move it on (年末年始, the merchant's closed days).
  const delivery =
    currentDelivery === null
      ? null
      : nextDeliveryDate(
          await deliverySettingsOf(ctx.db, shop.id),
          toZonedDate(nextAt, tz),
          input.settings.deliveryPrepDays,
        )
  // The next charge is cycle + 1: its prices from the lines' pricing policies.
  const pricing = await nextCyclePrices(ctx, shop, row, before, cycle + 1)
  const repriced = pricing?.repriced ?? []
  const advance = { nextAt, delivery, expired: false, repriced, pricing }
  if ((delivery !== null && delivery !== currentDelivery) || repriced.length > 0) {
    return { ...advance, patch: await commitNextCycle(client, gid, nextAt, delivery, repriced) }
  }
  if (!before.nextBillingDate || new Date(before.nextBillingDate).getTime() !== nextAt.getTime()) {
    last = await setContractNextBillingDate(client, gid, nextAt)
  }
  return { ...advance, patch: last ? patchOf(last) : null }
}

/** One draft for the next cycle: its billing date, delivery date and prices (three calls however much it changes). */
async function commitNextCycle(
  client: AdminClient,
  gid: string,
  nextAt: Date,
  delivery: string | null,
  repriced: LineRepricing[],
): Promise<ContractPatch> {
  let attributes: DraftInput['customAttributes']
  const committed = await withFreshDraftOnStale(() =>
    editContractThroughDraft(client, gid, async (draft) => {
      const input: DraftInput = { nextBillingDate: nextAt.toISOString() }
      const current = deliveryDateOf(draft.customAttributes)
      if (delivery !== null && current !== null && current !== delivery) {
        attributes = withAttribute(draft.customAttributes, DELIVERY_DATE_ATTRIBUTE, delivery)
        input.customAttributes = attributes
      }
      await draft.update(input)
      for (const r of repriced) await draft.updateLine(r.lineId, { currentPrice: r.to })
    }),
  )
  return {
    status: committed.status,
    nextBillingDate: committed.nextBillingDate,
    updatedAt: committed.updatedAt,
    revisionId: committed.revisionId,
    lastPaymentStatus: 'SUCCEEDED',
    ...(attributes ? { customAttributes: attributes } : {}),
    linePrices: repriced.map((r) => ({ lineId: r.lineId, price: r.to })),
  }
}

/** How many drafts a settlement makes when the contract keeps changing under it. */
const DRAFT_TRIES = 3

/**
 * Commits again from a fresh draft when the contract changed between draft and commit
 * (STALE_CONTRACT): the webhook, the poll and a run may settle one cycle at once (outcomes.ts),
 * and a merchant may edit the contract meanwhile. What is set (the next billing date, delivery
 * date and prices of cycle + 1, all from the cycle) is the same however often it is set, and a
 * fresh draft keeps what the other writer changed; the cycle row still decides which
 * settlement is recorded.
 */
async function withFreshDraftOnStale<T>(commit: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await commit()
    } catch (error) {
      const stale =
        error instanceof PlatformUserError && error.userErrors.some((e) => e.code === 'STALE_CONTRACT')
      if (!stale || attempt >= DRAFT_TRIES) throw error
    }
  }
}

/** `billed` with what the success did, and a `line_price_changed` per line repriced for the next cycle. */
function successEvents(
  row: CycleRow,
  attempt: PlatformBillingAttempt,
  order: PlatformBillingOrder,
  cycle: number,
  advance: Advance,
  attributes: OrderAttributesOutcome | null,
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
        // How many note attributes the order got, or why it got none (history, 契約詳細).
        ...(attributes ? { orderAttributes: attributes } : {}),
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
