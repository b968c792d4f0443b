import type { BatchItemStatus, BatchKind, BatchStatus, SubscriptionStatus } from '@teiki/contract'
import { type DbClient, queryRow } from '../../db/pool.ts'
import { jobTable } from '../../runs/job-rows.ts'

// SQL of the batch updates: the contracts a batch targets (read from the mirror), the batch
// rows, and one row per (batch, contract) whose status is the batch's decision for it.

/** Which contracts a batch touches: a variant (optionally one customer's), or a billing day. */
export type BatchTarget =
  | { kind: 'variant'; variantId: string; email: string | null }
  | { kind: 'billing-day'; start: Date; endExclusive: Date }

// Ended contracts are never touched, so they are not counted either.
const LIVE = `c.status not in ('CANCELLED', 'EXPIRED')`

/** `select c.id … from subscription_contracts c where …` for a target; $1 is the shop. */
function targetSql(target: BatchTarget, first: number): { where: string; values: unknown[] } {
  if (target.kind === 'variant') {
    const values: unknown[] = [target.variantId]
    let where = `${LIVE} and c.id in (select l.contract_id from subscription_lines l
        where l.shop_id = $1 and l.variant_id = $${first})`
    if (target.email) {
      values.push(target.email)
      where += ` and c.customer_id in (select cu.id from customers cu
        where cu.shop_id = $1 and lower(cu.email) = lower($${first + 1}))`
    }
    return { where, values }
  }
  return {
    where: `${LIVE} and c.next_billing_date >= $${first} and c.next_billing_date < $${first + 1}`,
    values: [target.start, target.endExclusive],
  }
}

export type TargetRow = {
  id: string
  customer_display_name: string
  email: string | null
  status: SubscriptionStatus
  next_billing_date: Date | null
}

const CONTRACT_COLUMNS = `c.id::text, c.customer_display_name,
  (select cu.email from customers cu where cu.shop_id = c.shop_id and cu.id = c.customer_id) as email,
  c.status, c.next_billing_date`

/** How many contracts the target holds now, and one page of them by id. */
export async function previewTargets(
  db: DbClient,
  shopId: string,
  target: BatchTarget,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: TargetRow[] }> {
  const { where, values } = targetSql(target, 2)
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from subscription_contracts c where c.shop_id = $1 and ${where}`,
    [shopId, ...values],
  )
  const n = values.length + 2
  const rows = await db.query<TargetRow>(
    `select ${CONTRACT_COLUMNS} from subscription_contracts c where c.shop_id = $1 and ${where}
     order by c.id offset $${n} limit $${n + 1}`,
    [shopId, ...values, page.offset, page.limit],
  )
  return { total: count.rows[0]?.n ?? 0, rows: rows.rows }
}

export type BatchRow = {
  shop_id: string
  id: string
  kind: BatchKind
  params: Record<string, string>
  notify_email: string | null
  status: BatchStatus
  total: number
  changed: number
  skipped: number
  failed: number
  error: string | null
  owner: string | null
  cancel_requested_at: Date | null
  created_at: Date
  updated_at: Date
  executed_at: Date | null
  finished_at: Date | null
}

export const BATCH_COLUMNS = `shop_id::text, id::text, kind, params, notify_email, status, total, changed, skipped,
  failed, error, owner, cancel_requested_at, created_at, updated_at, executed_at, finished_at`

/** The batches' job rows: read, and run as tracked runs (run.ts; a merchant's cancel stops one). */
export const batchRows = jobTable<BatchRow>({
  table: 'batch_updates',
  columns: BATCH_COLUMNS,
  idType: 'uuid',
  cancelled: 'cancel_requested_at is not null',
  claimSets: 'executed_at = coalesce(executed_at, now())',
  orphanOrder: 'created_at',
})

/** Records the batch and its rows, one per targeted contract (same transaction as the caller). */
export async function insertBatch(
  tx: DbClient,
  batch: {
    shopId: string
    id: string
    kind: BatchKind
    params: Record<string, string>
    notifyEmail: string | null
    target: BatchTarget
  },
): Promise<BatchRow> {
  await tx.query(
    `insert into batch_updates (shop_id, id, kind, params, notify_email, status)
     values ($1, $2, $3, $4, $5, 'queued')`,
    [batch.shopId, batch.id, batch.kind, JSON.stringify(batch.params), batch.notifyEmail],
  )
  const { where, values } = targetSql(batch.target, 3)
  const inserted = await tx.query(
    `insert into batch_update_items (shop_id, batch_id, contract_id)
     select $1, $2, c.id from subscription_contracts c where c.shop_id = $1 and ${where}`,
    [batch.shopId, batch.id, ...values],
  )
  const { rows } = await tx.query<BatchRow>(
    `update batch_updates set total = $3 where shop_id = $1 and id = $2 returning ${BATCH_COLUMNS}`,
    [batch.shopId, batch.id, inserted.rowCount ?? 0],
  )
  return rows[0]!
}

/** A batch of this shop still queued or running (one runs at a time per shop). */
export function openBatch(db: DbClient, shopId: string) {
  return queryRow<BatchRow>(
    db,
    `select ${BATCH_COLUMNS} from batch_updates where shop_id = $1 and status in ('queued', 'running')
     order by created_at limit 1`,
    [shopId],
  )
}

export const findBatch = batchRows.find
export const latestBatches = batchRows.latest

export type ItemRow = TargetRow & { result: BatchItemStatus; reason: string | null }

/** The report: the batch's contracts (optionally one result), by id, with the contract's names. */
export async function listItems(
  db: DbClient,
  shopId: string,
  batchId: string,
  filter: { status?: BatchItemStatus | undefined; offset: number; limit: number },
): Promise<{ total: number; rows: ItemRow[] }> {
  // 'applying' is shown as pending: its outcome is not known yet.
  const statuses = filter.status
    ? filter.status === 'pending'
      ? ['pending', 'applying']
      : [filter.status]
    : ['pending', 'applying', 'changed', 'skipped', 'failed']
  const count = await db.query<{ n: number }>(
    `select count(*)::int as n from batch_update_items
     where shop_id = $1 and batch_id = $2::uuid and status = any($3::text[])`,
    [shopId, batchId, statuses],
  )
  const { rows } = await db.query<ItemRow>(
    `select ${CONTRACT_COLUMNS},
       case when i.status = 'applying' then 'pending' else i.status end as result, i.reason
     from batch_update_items i
     join subscription_contracts c on c.shop_id = i.shop_id and c.id = i.contract_id
     where i.shop_id = $1 and i.batch_id = $2::uuid and i.status = any($3::text[])
     order by i.contract_id offset $4 limit $5`,
    [shopId, batchId, statuses, filter.offset, filter.limit],
  )
  return { total: count.rows[0]?.n ?? 0, rows }
}

/** Asks a batch to stop: a queued one ends at once (answered true), a running one at its next item. */
export function requestCancel(db: DbClient, shopId: string, id: string) {
  return queryRow<BatchRow>(
    db,
    `update batch_updates set cancel_requested_at = coalesce(cancel_requested_at, now()), updated_at = now()
     where shop_id = $1 and id = $2::uuid and status in ('queued', 'running')
     returning ${BATCH_COLUMNS}`,
    [shopId, id],
  )
}
