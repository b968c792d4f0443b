import type { CancellationReasonsGroupedBy, ContractCancellationReason } from '@teiki/contract'
import { zonedDayRange } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  countCancellationsByReason,
  createReason,
  deleteContractCancellation,
  findContractCancellation,
  findLiveReason,
  isId,
  listReasons,
  REASON_NOT_FOUND,
  upsertContractCancellation,
} from './repo.ts'

const CONTRACT_NOT_FOUND = '契約が見つかりません'

/** Cancellations per reason, optionally within calendar days of the shop's zone (Japan time). */
export async function cancellationReasonsGroupedBy(
  db: DbClient,
  shop: ShopRow,
  params: { startDate?: string; endDate?: string },
): Promise<CancellationReasonsGroupedBy> {
  if (params.startDate && params.endDate && params.startDate > params.endDate) {
    throw new AppError('INVALID_INPUT', '開始日は終了日以前の日付を指定してください。')
  }
  let range: ReturnType<typeof zonedDayRange>
  try {
    range = zonedDayRange(params.startDate, params.endDate, shop.iana_timezone)
  } catch {
    throw new AppError('INVALID_INPUT', '存在しない日付が指定されました。')
  }
  const rows = await countCancellationsByReason(db, shop.id, {
    from: range.start,
    before: range.endExclusive,
  })
  return {
    groups: rows.map((row) => ({ reasonId: row.reason_id, reason: row.reason, count: row.count })),
    total: rows.reduce((sum, row) => sum + row.count, 0),
  }
}

/** 404 unless the contract is in the shop's mirror; nulls when no cancellation is recorded. */
export async function contractCancellationReason(
  db: DbClient,
  shop: ShopRow,
  contractId: string,
): Promise<ContractCancellationReason> {
  const row = await findContractCancellation(db, shop.id, contractId)
  if (!row) throw notFound(CONTRACT_NOT_FOUND)
  return {
    contractId,
    reasonId: row.reason_id,
    reason: row.reason,
    cancelledAt: row.cancelled_at ? row.cancelled_at.toISOString() : null,
  }
}

/**
 * The ids of the shop's live reasons with these texts, in their order; a text the list does not
 * have is added at its end (the demo's seed: a merchant's own reasons are kept as they are).
 */
export async function ensureCancellationReasons(db: DbClient, shopId: string, texts: readonly string[]) {
  const live = new Map((await listReasons(db, shopId)).map((r) => [r.reason, r.id]))
  const ids: string[] = []
  for (const text of texts) ids.push(live.get(text) ?? (await createReason(db, shopId, text)).id)
  return ids
}

// A churn's reason (features/subscriptions/actions-service.ts): checked before the platform
// cancels anything, recorded in the churn's transaction.

/**
 * The text of one of the shop's live reasons. Throws NOT_FOUND 「解約理由が見つかりません」 for
 * an unknown, deleted or other shop's id, so a churn can refuse the reason before it asks the
 * platform to cancel anything.
 */
export async function resolveCancellationReason(
  db: DbClient,
  shopId: string,
  reasonId: string,
): Promise<string> {
  if (!isId(reasonId)) throw notFound(REASON_NOT_FOUND)
  const reason = await findLiveReason(db, shopId, reasonId)
  if (reason === null) throw notFound(REASON_NOT_FOUND)
  return reason
}

export type RecordedCancellation = { reasonId: string | null; reason: string }

/**
 * Records why a contract was cancelled (call it inside the churn transaction). `reasonId`
 * (one of the shop's live reasons; its text is copied) wins over the free text `reason`;
 * a blank free text counts as none. The row is the contract's latest cancellation: a new
 * cancellation replaces it, and one without any reason removes the previous one so an old
 * reason is never shown for a later cancellation. Returns what was stored, or null.
 */
export async function recordCancellation(
  db: DbClient,
  shopId: string,
  contractId: string,
  input: { reasonId?: string; reason?: string },
  cancelledAt: Date,
): Promise<RecordedCancellation | null> {
  let stored: RecordedCancellation | null = null
  if (input.reasonId) {
    stored = { reasonId: input.reasonId, reason: await resolveCancellationReason(db, shopId, input.reasonId) }
  } else if (input.reason?.trim()) {
    stored = { reasonId: null, reason: input.reason.trim() }
  }
  if (!stored) {
    await deleteContractCancellation(db, shopId, contractId)
    return null
  }
  await upsertContractCancellation(db, shopId, contractId, stored, cancelledAt)
  return stored
}
