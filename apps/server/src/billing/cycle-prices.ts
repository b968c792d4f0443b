import { type LineRepricing, repricedLines } from '@teiki/domain'
import { withTransaction } from '../db/pool.ts'
import type { ShopRow } from '../features/shops/repo.ts'
import { lineIdOf, toGid } from '../platform/gid.ts'
import type { PlatformContract } from '../platform/operations/subscription-contracts-page.ts'
import { editContractThroughDraft } from '../platform/operations/subscription-draft.ts'
import { fetchLinePricing } from '../platform/operations/subscription-line-pricing.ts'
import { appendContractEvent, lockContract } from '../sync/contracts-repo.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import { keepLinePricing, pricesAreManual, pricingFacts, writeLinePrices } from './repo.ts'

// Each cycle's line prices from the lines' pricing policies. The platform charges each line's
// currentPrice and never moves it; a contract comes from checkout with its first order's
// price, and a merchant's edit may reset a line. A contract whose prices the merchant set by
// hand is never repriced.

/** The contract's lines with their pricing policies, from the platform; null when it is gone. */
async function readLinePricing(ctx: EngineContext, shop: ShopRow, contractId: string, knownLines: number) {
  const gid = toGid('SubscriptionContract', contractId)
  // The shared selection reads up to 20 lines: a full page may hide more.
  const priced = await fetchLinePricing(ctx.clientFor(shop), gid, knownLines >= 20 ? 100 : knownLines)
  if (priced && !priced.complete)
    ctx.log.warn({ contract: contractId }, 'contract has more lines than repriced')
  return priced
}

/**
 * Before a cycle's charge (once per cycle, by whoever claimed it): the lines onto their
 * pricing policies' price for the cycle about to be charged. The lines as read (with the
 * prices the charge carries) are kept on the cycle row, and after a success the next cycle's
 * prices are worked out from them (nextCyclePrices), so each charge costs one read of the
 * policies. Returns the changes made. Never throws: when the platform refuses or fails, the
 * charge goes ahead at the current price (what it would be without this step) and the failure
 * is logged.
 */
export async function priceCharge(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
): Promise<LineRepricing[]> {
  try {
    return await repriceForCharge(ctx, shop, row)
  } catch (error) {
    ctx.log.warn({ err: error, contract: row.contract_id }, 'repricing before the charge failed')
    return []
  }
}

async function repriceForCharge(ctx: EngineContext, shop: ShopRow, row: CycleRow): Promise<LineRepricing[]> {
  const known = await pricingFacts(ctx.db, shop.id, row.contract_id)
  if (!known || known.manual || known.lines === 0) return []
  const priced = await readLinePricing(ctx, shop, row.contract_id, known.lines)
  if (!priced) return []
  const cycle = known.orders + 1
  const changes = repricedLines(priced.lines, cycle, priced.currencyCode)
  const charged = new Map(changes.map((r) => [r.lineId, r.to]))
  const kept = priced.lines.map((l) => ({ ...l, currentPrice: charged.get(l.id) ?? l.currentPrice }))
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

/**
 * The line prices cycle `cycle` (the next one, after a success) must carry that differ from
 * the contract's current ones. The policies come from the cycle row (read before the charge)
 * when it covers every line the contract has now, else from the platform.
 */
export async function nextCyclePrices(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  contract: PlatformContract,
  cycle: number,
): Promise<LineRepricing[]> {
  if (await pricesAreManual(ctx.db, shop.id, row.contract_id)) return []
  const stored = new Map((row.line_pricing ?? []).map((l) => [l.id, l]))
  const lines = contract.lines.nodes
  if (lines.length > 0 && lines.length < 20 && lines.every((l) => stored.has(l.id))) {
    const current = lines.map((l) => ({ ...stored.get(l.id)!, currentPrice: l.currentPrice.amount }))
    return repricedLines(current, cycle, contract.currencyCode)
  }
  const priced = await readLinePricing(ctx, shop, row.contract_id, lines.length)
  return priced ? repricedLines(priced.lines, cycle, priced.currencyCode) : []
}
