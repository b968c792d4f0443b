import type { BatchItemStatus, BatchItems, BulkQueryResponse } from '@teiki/contract'
import { bulkOperationStatusLabel, toZonedDate } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchCurrentBulkOperation } from '../../platform/operations/current-bulk-operation.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { type BatchRow, findBatch, latestBatches, listItems, requestCancel } from './repo.ts'
import { type BatchDeps, end } from './run.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const BATCH_NOT_FOUND = '一括更新が見つかりません'

/** The shop's batch, or 404 (another shop's id and a malformed id alike). */
export async function getBatch(db: Db, shop: ShopRow, id: string): Promise<BatchRow> {
  const batch = UUID.test(id) ? await findBatch(db, shop.id, id) : null
  if (!batch) throw notFound(BATCH_NOT_FOUND)
  return batch
}

export const listBatches = (db: Db, shop: ShopRow) => latestBatches(db, shop.id, 10)

/** The report page by page: each contract with what the batch did and why. */
export async function batchItems(
  db: Db,
  shop: ShopRow,
  id: string,
  filter: { status?: BatchItemStatus | undefined; offset: number; limit: number },
): Promise<BatchItems> {
  const batch = await getBatch(db, shop, id)
  const { total, rows } = await listItems(db, shop.id, batch.id, filter)
  return {
    total,
    offset: filter.offset,
    limit: filter.limit,
    items: rows.map((row) => ({
      contractId: row.id,
      customerName: row.customer_display_name,
      email: row.email,
      status: row.status,
      nextBillingDate: row.next_billing_date ? toZonedDate(row.next_billing_date, shop.iana_timezone) : null,
      result: row.result,
      reason: row.reason,
    })),
  }
}

/**
 * Cancels a batch: a queued one ends now (with its mail), a running one stops before its next
 * contracts; what was changed stays changed and is reported. 409 once it has ended.
 */
export async function cancelBatch(deps: BatchDeps, shop: ShopRow, id: string): Promise<BatchRow> {
  const batch = await getBatch(deps.db, shop, id)
  const asked = await requestCancel(deps.db, shop.id, batch.id)
  if (!asked) throw new AppError('CONFLICT', 'この一括更新はすでに終了しています')
  if (asked.status === 'queued') return (await end(deps, shop, batch.id, 'cancelled', null)) ?? asked
  return asked
}

/** GET /bulk-query: the shop's latest bulk operation as the platform reports it. */
export async function bulkQuery(clients: ShopClients, shop: ShopRow): Promise<BulkQueryResponse> {
  let op: Awaited<ReturnType<typeof fetchCurrentBulkOperation>>
  try {
    op = await fetchCurrentBulkOperation(clients.clientFor(shop))
  } catch (error) {
    throw platformError(error, '一括処理の状態の確認')
  }
  if (!op) return { bulkOperation: null }
  return {
    bulkOperation: {
      id: op.id,
      status: op.status,
      statusLabel: bulkOperationStatusLabel(op.status),
      errorCode: op.errorCode,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
      objectCount: String(op.objectCount),
    },
  }
}
