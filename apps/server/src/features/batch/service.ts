import { randomUUID } from 'node:crypto'
import type { BatchJob, BatchKind, BatchPreview } from '@teiki/contract'
import { batchPercent, formatDateJa, toZonedDate, zonedDayRange } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  type BatchRow,
  type BatchTarget,
  insertBatch,
  openBatch,
  previewTargets,
  type TargetRow,
} from './repo.ts'
import { findVariantName } from './variants-repo.ts'

/** Puts a recorded batch on the job queue, in the transaction that records it. */
export type EnqueueBatch = (tx: DbClient, batch: { shopId: string; batchId: string }) => Promise<void>

/** What the merchant asked for, resolved against the shop: what to target and how to say it. */
export type BatchPlan = {
  kind: BatchKind
  params: Record<string, string>
  target: BatchTarget
  summary: string
}

const VARIANT_NOT_FOUND = 'バリエーションが見つかりません'
const NOTHING_TO_DO =
  '対象となる契約がありません。条件を確認してください（解約済み・期限切れの契約は対象外です）。'
const ONE_AT_A_TIME = '別の一括更新が実行中です。終わってから（または中止してから）もう一度お試しください。'

async function variantName(db: DbClient, shop: ShopRow, id: string, label: string): Promise<string> {
  const name = await findVariantName(db, shop.id, id)
  if (name === null) throw notFound(`${label}の${VARIANT_NOT_FOUND}（ID: ${id}）`)
  return name
}

const forCustomer = (email: string | undefined) => (email ? `（お客様 ${email} の契約のみ）` : '')

export async function planProductUpdate(
  db: DbClient,
  shop: ShopRow,
  input: { email?: string | undefined; variantIdFrom: string; variantIdTo: string },
): Promise<BatchPlan> {
  const from = await variantName(db, shop, input.variantIdFrom, '変更前')
  const to = await variantName(db, shop, input.variantIdTo, '変更後')
  return {
    kind: 'product-update',
    params: {
      variantIdFrom: input.variantIdFrom,
      variantIdTo: input.variantIdTo,
      ...(input.email ? { email: input.email } : {}),
    },
    target: { kind: 'variant', variantId: input.variantIdFrom, email: input.email ?? null },
    summary: `「${from}」を「${to}」に入れ替え${forCustomer(input.email)}`,
  }
}

export async function planProductDelete(
  db: DbClient,
  shop: ShopRow,
  input: { email?: string | undefined; variantId: string },
): Promise<BatchPlan> {
  const name = await variantName(db, shop, input.variantId, '削除する商品')
  return {
    kind: 'product-delete',
    params: { variantId: input.variantId, ...(input.email ? { email: input.email } : {}) },
    target: { kind: 'variant', variantId: input.variantId, email: input.email ?? null },
    summary: `「${name}」を契約から削除${forCustomer(input.email)}`,
  }
}

export function planNextBillingDate(
  shop: ShopRow,
  input: { nextBillingDateFrom: string; nextBillingDateTo: string },
  now: Date,
): BatchPlan {
  const zone = shop.iana_timezone
  if (input.nextBillingDateTo < toZonedDate(now, zone)) {
    throw new AppError('INVALID_INPUT', '変更後の次回請求日には今日以降の日付を指定してください')
  }
  const day = zonedDayRange(input.nextBillingDateFrom, input.nextBillingDateFrom, zone)
  const ja = (d: string) => formatDateJa(`${d}T12:00:00Z`, 'UTC')
  return {
    kind: 'next-billing-date-update',
    params: { nextBillingDateFrom: input.nextBillingDateFrom, nextBillingDateTo: input.nextBillingDateTo },
    target: { kind: 'billing-day', start: day.start!, endExclusive: day.endExclusive! },
    summary: `次回請求日が${ja(input.nextBillingDateFrom)}の契約を${ja(input.nextBillingDateTo)}に変更`,
  }
}

const contractOf = (row: TargetRow, zone: string) => ({
  contractId: row.id,
  customerName: row.customer_display_name,
  email: row.email,
  status: row.status,
  nextBillingDate: row.next_billing_date ? toZonedDate(row.next_billing_date, zone) : null,
})

/** How many contracts the plan touches now, and one page of them. */
export async function preview(
  db: Db,
  shop: ShopRow,
  plan: BatchPlan,
  page: { offset: number; limit: number },
): Promise<BatchPreview> {
  const { total, rows } = await previewTargets(db, shop.id, plan.target, page)
  return {
    kind: plan.kind,
    summary: plan.summary,
    total,
    ...page,
    contracts: rows.map((row) => contractOf(row, shop.iana_timezone)),
  }
}

/**
 * Starts a batch: the batch and one row per targeted contract (decided now, from the mirror)
 * and its job, in one transaction, one batch at a time per shop. Nothing to change is a 400
 * and nothing is recorded.
 */
export async function startBatch(
  db: Db,
  shop: ShopRow,
  plan: BatchPlan,
  notifyEmail: string | null,
  enqueue?: EnqueueBatch,
): Promise<BatchRow> {
  return withTransaction(db, async (tx) => {
    // Two starts at once for one shop: the second waits here and then sees the first.
    await tx.query(`select pg_advisory_xact_lock(hashtext('teiki-batch'), hashtext($1))`, [shop.id])
    if (await openBatch(tx, shop.id)) throw new AppError('CONFLICT', ONE_AT_A_TIME)
    const batch = await insertBatch(tx, {
      shopId: shop.id,
      id: randomUUID(),
      kind: plan.kind,
      params: { ...plan.params, summary: plan.summary },
      notifyEmail,
      target: plan.target,
    })
    if (batch.total === 0) throw new AppError('INVALID_INPUT', NOTHING_TO_DO)
    await enqueue?.(tx, { shopId: shop.id, batchId: batch.id })
    return batch
  })
}

export function toApiBatch(batch: BatchRow): BatchJob {
  const counts = { total: batch.total, changed: batch.changed, skipped: batch.skipped, failed: batch.failed }
  return {
    id: batch.id,
    kind: batch.kind,
    summary: batch.params.summary ?? '',
    status: batch.status,
    notifyEmail: batch.notify_email,
    ...counts,
    pending: Math.max(0, batch.total - batch.changed - batch.skipped - batch.failed),
    percent: batchPercent(counts),
    cancelRequested: batch.cancel_requested_at !== null,
    error: batch.error,
    createdAt: batch.created_at.toISOString(),
    updatedAt: batch.updated_at.toISOString(),
    executedAt: batch.executed_at?.toISOString() ?? null,
    finishedAt: batch.finished_at?.toISOString() ?? null,
  }
}
