import type { CancellationReason } from '@teiki/contract'
import { type DbClient, queryRow } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'

export const REASON_NOT_FOUND = '解約理由が見つかりません'
export const REASON_DUPLICATE = '同じ解約理由がすでに登録されています'

type ReasonRow = { id: string; reason: string; position: number }

const toReason = (row: ReasonRow): CancellationReason => ({
  id: row.id,
  reason: row.reason,
  position: row.position,
})

// Ids reach the SQL as bigint: anything that is not one cannot be a reason of the shop.
export const isId = (id: string) => /^\d{1,18}$/.test(id)

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505'

/** The shop's live reasons, in display order. */
export async function listReasons(db: DbClient, shopId: string): Promise<CancellationReason[]> {
  const { rows } = await db.query<ReasonRow>(
    `select id::text, reason, position from cancellation_reasons
     where shop_id = $1 and deleted_at is null
     order by position, id`,
    [shopId],
  )
  return rows.map(toReason)
}

/** Adds a reason at the end of the list; 409 when a live reason has the same text. */
export async function createReason(
  db: DbClient,
  shopId: string,
  reason: string,
): Promise<CancellationReason> {
  try {
    const { rows } = await db.query<ReasonRow>(
      `insert into cancellation_reasons (shop_id, reason, position)
       select $1, $2, coalesce(max(position) + 1, 0)
       from cancellation_reasons where shop_id = $1 and deleted_at is null
       returning id::text, reason, position`,
      [shopId, reason],
    )
    return toReason(rows[0]!)
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', REASON_DUPLICATE, { cause: error })
    throw error
  }
}

/**
 * Renames a live reason. Cancellations already recorded keep the text they were stored with.
 * 404 for an unknown, deleted or other shop's id; 409 when another live reason has the text.
 */
export async function updateReason(
  db: DbClient,
  shopId: string,
  id: string,
  reason: string,
): Promise<CancellationReason> {
  if (!isId(id)) throw notFound(REASON_NOT_FOUND)
  try {
    const { rows } = await db.query<ReasonRow>(
      `update cancellation_reasons set reason = $3
       where shop_id = $1 and id = $2::bigint and deleted_at is null
       returning id::text, reason, position`,
      [shopId, id, reason],
    )
    if (!rows[0]) throw notFound(REASON_NOT_FOUND)
    return toReason(rows[0])
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', REASON_DUPLICATE, { cause: error })
    throw error
  }
}

/**
 * Hides a reason from the list (soft delete): cancellations recorded with it keep their text
 * and their reason id, and the same text can be added again later.
 */
export async function deleteReason(db: DbClient, shopId: string, id: string): Promise<void> {
  if (!isId(id)) throw notFound(REASON_NOT_FOUND)
  const { rowCount } = await db.query(
    `update cancellation_reasons set deleted_at = now()
     where shop_id = $1 and id = $2::bigint and deleted_at is null`,
    [shopId, id],
  )
  if (!rowCount) throw notFound(REASON_NOT_FOUND)
}

/** The text of the shop's live reason `reasonId` (a bigint id); null for an unknown, deleted or other shop's id. */
export async function findLiveReason(db: DbClient, shopId: string, reasonId: string): Promise<string | null> {
  const { rows } = await db.query<{ reason: string }>(
    `select reason from cancellation_reasons where shop_id = $1 and id = $2::bigint and deleted_at is null`,
    [shopId, reasonId],
  )
  return rows[0]?.reason ?? null
}

export async function deleteContractCancellation(db: DbClient, shopId: string, contractId: string) {
  await db.query(`delete from contract_cancellations where shop_id = $1 and contract_id = $2::bigint`, [
    shopId,
    contractId,
  ])
}

/** The contract's latest cancellation (one row a contract: a new one replaces it). */
export async function upsertContractCancellation(
  db: DbClient,
  shopId: string,
  contractId: string,
  stored: { reasonId: string | null; reason: string },
  cancelledAt: Date,
): Promise<void> {
  await db.query(
    `insert into contract_cancellations (shop_id, contract_id, reason_id, reason, cancelled_at)
     values ($1, $2::bigint, $3::bigint, $4, $5)
     on conflict (shop_id, contract_id) do update
       set reason_id = excluded.reason_id, reason = excluded.reason, cancelled_at = excluded.cancelled_at`,
    [shopId, contractId, stored.reasonId, stored.reason, cancelledAt],
  )
}

export type ReasonGroupRow = { reason_id: string | null; reason: string; count: number }

/**
 * Recorded cancellations per reason, most frequent first (ties by text in code point order,
 * the same on every database). A shop reason is one group however
 * often it was renamed, shown with its current text (deleted reasons keep theirs); free-text
 * reasons are grouped by their text.
 */
export async function countCancellationsByReason(
  db: DbClient,
  shopId: string,
  range: { from: Date | null; before: Date | null },
): Promise<ReasonGroupRow[]> {
  const values: unknown[] = [shopId]
  const where = ['shop_id = $1']
  if (range.from) {
    values.push(range.from)
    where.push(`cancelled_at >= $${values.length}`)
  }
  if (range.before) {
    values.push(range.before)
    where.push(`cancelled_at < $${values.length}`)
  }
  const { rows } = await db.query<ReasonGroupRow>(
    `with grouped as (
       select reason_id,
              case when reason_id is null then reason end as free_text,
              (array_agg(reason order by cancelled_at desc))[1] as latest_text,
              count(*)::int as count
       from contract_cancellations
       where ${where.join(' and ')}
       group by reason_id, case when reason_id is null then reason end
     )
     select g.reason_id::text as reason_id, coalesce(g.free_text, r.reason, g.latest_text) as reason, g.count
     from grouped g
     left join cancellation_reasons r on r.shop_id = $1 and r.id = g.reason_id
     order by g.count desc, coalesce(g.free_text, r.reason, g.latest_text) collate "C", g.reason_id nulls last`,
    values,
  )
  return rows
}

export type ContractCancellationRow = {
  reason_id: string | null
  reason: string | null
  cancelled_at: Date | null
}

/** The contract's recorded cancellation (nulls when none); null when the contract is not in the shop. */
export function findContractCancellation(db: DbClient, shopId: string, contractId: string) {
  return queryRow<ContractCancellationRow>(
    db,
    `select cc.reason_id::text as reason_id, cc.reason, cc.cancelled_at
     from subscription_contracts c
     left join contract_cancellations cc on cc.shop_id = c.shop_id and cc.contract_id = c.id
     where c.shop_id = $1 and c.id = $2::bigint`,
    [shopId, contractId],
  )
}
