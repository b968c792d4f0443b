import { toZonedDate } from '../format/dates.ts'
import { TERMINAL_STATUSES } from '../subscriptions/status-transitions.ts'
import type { SubscriptionStatus } from '../subscriptions/statuses.ts'

/**
 * What a batch update (一括更新, issue 17) does to one contract, decided from the contract as
 * the platform has it right before the change. Pure: the caller reads the contract and the new
 * variant, passes them in, and carries out the step it gets back.
 *
 * Exactly once: `attempted` says the batch already asked the platform for this contract (its
 * row was marked before the mutation, and the process died before the outcome was written).
 * A contract found already in the wanted state is then `changed` by this batch; found so
 * without an attempt, someone else changed it, and it is skipped with that reason. Nothing is
 * ever applied to a contract already in the wanted state, so a resumed batch never changes a
 * contract twice.
 */
export type BatchStep =
  | { kind: 'apply'; lineIds: string[] }
  | { kind: 'changed' }
  | { kind: 'skip'; reason: string }

/** A contract as the rules read it: numeric ids as decimal text. */
export type BatchContract = {
  status: SubscriptionStatus
  nextBillingDate: string | null
  lines: ReadonlyArray<{ id: string; variantId: string | null; sellingPlanId: string | null }>
}

/** The new variant as the platform has it (stock and the selling plans it may be sold with). */
export type BatchVariant = {
  /** False: the variant cannot be sold now (out of stock and not sold past it). */
  availableForSale: boolean
  /** The selling plans of the groups the variant belongs to. */
  sellingPlanIds: ReadonlySet<string>
}

/** Skip reasons the merchant reads in the report and the mail. */
export const BATCH_REASONS = {
  ended: (status: SubscriptionStatus) =>
    `${status === 'CANCELLED' ? '解約済み' : '期限切れ'}の契約のため変更しませんでした`,
  noLongerHas: '契約に対象の商品がなくなっていたため変更しませんでした',
  alreadySwapped: '契約の商品はすでに新しい商品に変更されていました',
  outOfStock: '新しい商品が在庫切れのため変更しませんでした',
  notInPlan: '新しい商品が契約の販売プランの対象外のため変更しませんでした',
  lastLine: '契約の最後の商品は削除できないため変更しませんでした（契約を終了する場合は解約してください）',
  dateMoved: '次回請求日がすでに別の日に変更されていたため変更しませんでした',
  alreadyMoved: '次回請求日はすでに変更後の日付になっていました',
  noBillingDate: '次回請求日がない契約のため変更しませんでした',
} as const

function ended(contract: BatchContract): BatchStep | null {
  return TERMINAL_STATUSES.has(contract.status)
    ? { kind: 'skip', reason: BATCH_REASONS.ended(contract.status) }
    : null
}

/**
 * Swap `from` for `to` on every line carrying `from` (spec §3 variant swap). Skipped: an ended
 * contract, the new variant out of stock, a line on a selling plan the new variant is not sold
 * with. A line without a selling plan is not judged by plan.
 */
export function swapStep(
  contract: BatchContract,
  swap: { from: string; to: string; attempted: boolean },
  variant: BatchVariant,
): BatchStep {
  const stop = ended(contract)
  if (stop) return stop
  const lines = contract.lines.filter((l) => l.variantId === swap.from)
  if (lines.length === 0) {
    if (contract.lines.some((l) => l.variantId === swap.to)) {
      return swap.attempted ? { kind: 'changed' } : { kind: 'skip', reason: BATCH_REASONS.alreadySwapped }
    }
    return { kind: 'skip', reason: BATCH_REASONS.noLongerHas }
  }
  if (!variant.availableForSale) return { kind: 'skip', reason: BATCH_REASONS.outOfStock }
  if (lines.some((l) => l.sellingPlanId !== null && !variant.sellingPlanIds.has(l.sellingPlanId))) {
    return { kind: 'skip', reason: BATCH_REASONS.notInPlan }
  }
  return { kind: 'apply', lineIds: lines.map((l) => l.id) }
}

/** Remove every line carrying `variantId` (spec §3 variant removal); never the contract's last line. */
export function removeStep(
  contract: BatchContract,
  removal: { variantId: string; attempted: boolean },
): BatchStep {
  const stop = ended(contract)
  if (stop) return stop
  const lines = contract.lines.filter((l) => l.variantId === removal.variantId)
  if (lines.length === 0) {
    return removal.attempted ? { kind: 'changed' } : { kind: 'skip', reason: BATCH_REASONS.noLongerHas }
  }
  if (lines.length === contract.lines.length) return { kind: 'skip', reason: BATCH_REASONS.lastLine }
  return { kind: 'apply', lineIds: lines.map((l) => l.id) }
}

/**
 * Move the next billing date from the day `from` to the day `to` (spec §3 next billing range),
 * both calendar days in the shop's zone. A contract whose date is no longer on `from` is left.
 */
export function moveDateStep(
  contract: BatchContract,
  move: { from: string; to: string; attempted: boolean; timeZone: string },
): BatchStep {
  const stop = ended(contract)
  if (stop) return stop
  if (!contract.nextBillingDate) return { kind: 'skip', reason: BATCH_REASONS.noBillingDate }
  const day = toZonedDate(contract.nextBillingDate, move.timeZone)
  if (day === move.to) {
    return move.attempted ? { kind: 'changed' } : { kind: 'skip', reason: BATCH_REASONS.alreadyMoved }
  }
  if (day !== move.from) return { kind: 'skip', reason: BATCH_REASONS.dateMoved }
  return { kind: 'apply', lineIds: [] }
}

export type BatchCounts = { total: number; changed: number; skipped: number; failed: number }

/** Whole percent of the contracts decided (0 while nothing is known, 100 when all are). */
export function batchPercent(counts: BatchCounts): number {
  if (counts.total <= 0) return 0
  const decided = counts.changed + counts.skipped + counts.failed
  return Math.min(100, Math.floor((decided * 100) / counts.total))
}
