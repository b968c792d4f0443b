import type { CancellationReasonsGroupedBy, ContractCancellationReason } from '@teiki/contract'
import { zonedDayRange } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../shops/repo.ts'
import { countCancellationsByReason, findContractCancellation } from './repo.ts'

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
