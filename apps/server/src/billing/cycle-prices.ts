import {
  type CustomCycleDiscount,
  type LineRepricing,
  linePriceForCycle,
  type PricedLine,
  repricedLines,
} from '@teiki/domain'
import { withTransaction } from '../db/pool.ts'
import { planCycleDiscounts } from '../features/selling-plans/cycle-discounts-service.ts'
import { lineIdOf, toGid } from '../platform/gid.ts'
import type { ChargeCheck } from '../platform/operations/subscription-charge-check.ts'
import { editContractThroughDraft } from '../platform/operations/subscription-draft.ts'
import { fetchLinePricing } from '../platform/operations/subscription-line-pricing.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { appendContractEvent, lockContract } from '../sync/contracts-repo.ts'
import { type ContractState, carryLinePricing, keepContractLinePricing } from '../sync/line-pricing-repo.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import {
  keepLinePricing,
  type MirroredContract,
  mirroredContract,
  orderCount,
  writeLinePrices,
} from './repo.ts'

// Each cycle's line prices from the lines' pricing policies. The platform charges each line's
// currentPrice and never moves it; a contract comes from checkout with its first order's
// price, and a merchant's edit may reset a line. A contract whose prices the merchant set by
// hand is never repriced.
//
// The policies come from the mirror (subscription_contracts.line_pricing: the first sync's
// bulk export, or the last read) while the platform's updatedAt is still the one they were
// read at; otherwise they are read from the platform (about 6 points a line) and kept.

/** The lines' policies with the prices they carry, and the contract state they are true at. */
type Pricing = { lines: PricedLine[]; state: ContractState }

const sameState = (a: ContractState, b: ContractState) =>
  a.revisionId === b.revisionId && Date.parse(a.updatedAt) === Date.parse(b.updatedAt)

/** The lines' policies kept in the mirror, when they cover every line and are true at `state`. */
function keptPricing(contract: MirroredContract, state: ContractState): Pricing | null {
  const kept = contract.linePricing
  const keptAt = contract.linePricingState
  if (!kept || !keptAt || !sameState(keptAt, state)) return null
  const byId = new Map(kept.map((l) => [l.id, l]))
  if (!contract.lines.every((l) => byId.has(l.id))) return null
  return {
    lines: contract.lines.map((l) => ({ ...byId.get(l.id)!, currentPrice: l.currentPrice })),
    state: keptAt,
  }
}

/** The contract's lines with their policies, from the platform (kept in the mirror); null when it is gone. */
async function readPricing(ctx: EngineContext, shop: ShopRow, contractId: string, knownLines: number) {
  const gid = toGid('SubscriptionContract', contractId)
  const priced = await fetchLinePricing(ctx.clientFor(shop), gid, knownLines)
  if (!priced) return null
  // Changing while its pages were read: priced as read, not kept for the next charge.
  if (!priced.complete) ctx.log.warn({ contract: contractId }, 'contract changed while its lines were read')
  const state = { revisionId: priced.revisionId, updatedAt: priced.updatedAt }
  if (priced.complete)
    await keepContractLinePricing(ctx.db, shop.id, [{ contractId, state, lines: priced.lines }])
  return { lines: priced.lines, state }
}

/**
 * The lines as the cycle is priced: a line sold with a recurring-multi plan carries its plan's
 * custom cycle discounts (ADR 0013), which `linePriceForCycle` lays over its own policy. What
 * is kept in the mirror stays the platform's policies (`pricing.lines`); this only decides the
 * price.
 */
async function withPlanRules(
  ctx: EngineContext,
  shop: ShopRow,
  contract: MirroredContract,
  lines: PricedLine[],
): Promise<PricedLine[]> {
  const planIds = contract.lines.flatMap((l) => l.sellingPlanId ?? [])
  if (planIds.length === 0) return lines
  return linesWithPlanRules(lines, contract.lines, await planCycleDiscounts(ctx.db, shop.id, planIds))
}

/** Each line with the rules of the plan the mirror says it was sold with (none: as it is). */
export function linesWithPlanRules(
  lines: readonly PricedLine[],
  sold: ReadonlyArray<{ id: string; sellingPlanId: string | null }>,
  rules: ReadonlyMap<string, readonly CustomCycleDiscount[]>,
): PricedLine[] {
  const planOf = new Map(sold.map((l) => [l.id, l.sellingPlanId]))
  return lines.map((line) => {
    const own = rules.get(planOf.get(line.id) ?? '')
    return own ? { ...line, planRules: own } : line
  })
}

/**
 * Before a cycle's charge (once per cycle, by whoever claimed it): the lines onto their
 * pricing policies' price for the cycle about to be charged; the lines as charged are kept on
 * the cycle row. `check`: the platform's state read just before (pre-charge.ts), which tells
 * whether the mirror's policies are still true. Returns the changes made. Never throws: when
 * the platform refuses or fails, the charge goes ahead at the current price (what it would be
 * without this step) and the failure is logged.
 */
export async function priceCharge(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  check: ChargeCheck | null,
): Promise<LineRepricing[]> {
  try {
    return await repriceForCharge(ctx, shop, row, check)
  } catch (error) {
    ctx.log.warn({ err: error, contract: row.contract_id }, 'repricing before the charge failed')
    return []
  }
}

async function repriceForCharge(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  check: ChargeCheck | null,
): Promise<LineRepricing[]> {
  const contract = await mirroredContract(ctx.db, shop.id, row.contract_id)
  if (!contract || contract.manualPrices || contract.lines.length === 0) return []
  const pricing =
    (check ? keptPricing(contract, check) : null) ??
    (await readPricing(ctx, shop, row.contract_id, contract.lines.length))
  if (!pricing) return []
  // The cycle about to be charged: one after the orders so far.
  const cycle = (await orderCount(ctx.db, shop.id, row.contract_id)) + 1
  const changes = repricedLines(
    await withPlanRules(ctx, shop, contract, pricing.lines),
    cycle,
    contract.currencyCode,
  )
  const charged = new Map(changes.map((r) => [r.lineId, r.to]))
  const kept = pricing.lines.map((l) => ({ ...l, currentPrice: charged.get(l.id) ?? l.currentPrice }))
  const committed =
    changes.length === 0
      ? null
      : await editContractThroughDraft(
          ctx.clientFor(shop),
          toGid('SubscriptionContract', row.contract_id),
          async (draft) => {
            for (const r of changes) await draft.updateLine(r.lineId, { currentPrice: r.to })
          },
        )
  await withTransaction(ctx.db, async (tx) => {
    await lockContract(tx, shop.id, row.contract_id)
    await keepLinePricing(tx, shop.id, row.id, kept)
    if (!committed) return
    await carryLinePricing(tx, shop.id, row.contract_id, kept, pricing.state, committed)
    await writeLinePrices(tx, shop.id, row.contract_id, changes, committed)
    for (const r of changes) {
      await appendContractEvent(tx, shop.id, 'billing', {
        contractId: row.contract_id,
        type: 'line_price_changed',
        payload: { lineId: lineIdOf(r.lineId), from: r.from, to: r.to, cycle, source: 'pricing_policy' },
      })
    }
  })
  return changes
}

/** The next cycle's prices, with the policies they came from and the contract state those are true at. */
export type PricesForNext = Pricing & { repriced: LineRepricing[] }

/**
 * The line prices cycle `cycle` (the next one, after a success) must carry that differ from
 * the contract's current ones. The policies come from the mirror when they are true at the
 * mirrored state and cover every line, else from the platform. Null for hand-set prices.
 */
export async function nextCyclePrices(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  contract: MirroredContract,
  cycle: number,
): Promise<PricesForNext | null> {
  if (contract.manualPrices || contract.lines.length === 0) return null
  const pricing =
    keptPricing(contract, contract) ?? (await readPricing(ctx, shop, row.contract_id, contract.lines.length))
  if (!pricing) return null
  const priced = await withPlanRules(ctx, shop, contract, pricing.lines)
  return { ...pricing, repriced: repricedLines(priced, cycle, contract.currencyCode) }
}

/** A contract's next cycle as every mail and screen quotes it: each line's unit price for it. */
export type CycleQuote = {
  /** The cycle the next charge bills: one after the orders so far. */
  cycle: number
  currencyCode: string
  lines: Array<{ id: string; quantity: number; unitPrice: string }>
}

/**
 * The contract's next cycle priced as the engine will charge it (`linePriceForCycle`, the same
 * policies, plan rules and cycle number as `priceCharge`), for the mails that quote an amount
 * before the charge (次回請求のお知らせ). Null when the mirror does not hold the contract or the
 * platform no longer has it; platform failures are thrown (the caller decides to wait).
 */
export async function quoteNextCycle(
  ctx: EngineContext,
  shop: ShopRow,
  contractId: string,
): Promise<CycleQuote | null> {
  const contract = await mirroredContract(ctx.db, shop.id, contractId)
  if (!contract) return null
  const cycle = (await orderCount(ctx.db, shop.id, contractId)) + 1
  const pricing = { currencyCode: contract.currencyCode, manualPrices: contract.manualPrices }
  const quantities = new Map(contract.lines.map((l) => [l.id, l.quantity]))
  let lines: PricedLine[] = contract.lines.map((l) => ({ ...l, pricingPolicy: null }))
  if (!contract.manualPrices && contract.lines.length > 0) {
    const read =
      keptPricing(contract, contract) ?? (await readPricing(ctx, shop, contractId, contract.lines.length))
    if (!read) return null
    lines = await withPlanRules(ctx, shop, contract, read.lines)
  }
  return quoteOf(lines, quantities, cycle, pricing)
}

/** The quote of `cycle` for lines (with their plan rules) and their quantities. */
export function quoteOf(
  lines: readonly PricedLine[],
  quantities: ReadonlyMap<string, number>,
  cycle: number,
  pricing: { currencyCode: string; manualPrices: boolean },
): CycleQuote {
  return {
    cycle,
    currencyCode: pricing.currencyCode,
    lines: lines.map((l) => ({
      id: l.id,
      quantity: quantities.get(l.id) ?? 0,
      unitPrice: linePriceForCycle(l, cycle, pricing),
    })),
  }
}
