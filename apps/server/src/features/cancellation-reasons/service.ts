import type {
  CancellationReasonList,
  CancellationReasonsGroupedBy,
  ContractCancellationReason,
} from '@teiki/contract'
import type { DbClient } from '../../db/pool.ts'
import { merchantDayRange, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  countCancellationsByReason,
  createReason,
  deleteContractCancellation,
  deleteReason,
  findContractCancellation,
  findLiveReason,
  isId,
  listReasons,
  REASON_NOT_FOUND,
  updateReason,
  upsertContractCancellation,
} from './repo.ts'

const CONTRACT_NOT_FOUND = '契約が見つかりません'

/** The routes' cancellation reasons (spec §7), on one database. */
export function createCancellationReasonService(db: DbClient) {
  return {
    /** The shop's live reasons, in display order. */
    list: async (shop: ShopRow): Promise<CancellationReasonList> => ({
      reasons: await listReasons(db, shop.id),
    }),
    create: (shop: ShopRow, reason: string) => createReason(db, shop.id, reason),
    update: (shop: ShopRow, id: string, reason: string) => updateReason(db, shop.id, id, reason),
    remove: (shop: ShopRow, id: string) => deleteReason(db, shop.id, id),
    groupedBy: (shop: ShopRow, params: DayRangeParams) => cancellationReasonsGroupedBy(db, shop, params),
    ofContract: (shop: ShopRow, contractId: string) => contractCancellationReason(db, shop, contractId),
  }
}

type DayRangeParams = { startDate?: string; endDate?: string }

/** Cancellations per reason, optionally within calendar days of the shop's zone (Japan time). */
export async function cancellationReasonsGroupedBy(
  db: DbClient,
  shop: ShopRow,
  params: { startDate?: string; endDate?: string },
): Promise<CancellationReasonsGroupedBy> {
  const range = merchantDayRange(params.startDate, params.endDate, shop.iana_timezone)
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

/** 解約防止オファー: the shop's live reasons with their offers, one reason's, and setting one (offers-repo.ts). */
export { findReasonOffer, listReasonOffers, type ReasonOfferRow, setReasonOffer } from './offers-repo.ts'
