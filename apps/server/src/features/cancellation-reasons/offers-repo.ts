import type { RetentionOffer } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { notFound } from '../../http/app-error.ts'
import { isId, REASON_NOT_FOUND } from './repo.ts'

// 解約防止オファー (issue 26): one offer per cancellation reason, kept on the reason's row.

export type ReasonOfferRow = { id: string; reason: string; offer: RetentionOffer | null }

/** The shop's live reasons in display order, each with its offer (null: none). */
export async function listReasonOffers(db: DbClient, shopId: string): Promise<ReasonOfferRow[]> {
  const { rows } = await db.query<ReasonOfferRow>(
    `select id::text, reason, offer from cancellation_reasons
     where shop_id = $1 and deleted_at is null order by position, id`,
    [shopId],
  )
  return rows
}

/** One live reason with its offer; null for an unknown, deleted or other shop's id. */
export async function findReasonOffer(
  db: DbClient,
  shopId: string,
  id: string,
): Promise<ReasonOfferRow | null> {
  if (!isId(id)) return null
  const { rows } = await db.query<ReasonOfferRow>(
    `select id::text, reason, offer from cancellation_reasons
     where shop_id = $1 and id = $2::bigint and deleted_at is null`,
    [shopId, id],
  )
  return rows[0] ?? null
}

/** Sets (or clears, with null) a live reason's offer; 404 for any other id. */
export async function setReasonOffer(
  db: DbClient,
  shopId: string,
  id: string,
  offer: RetentionOffer | null,
): Promise<void> {
  if (!isId(id)) throw notFound(REASON_NOT_FOUND)
  const { rowCount } = await db.query(
    `update cancellation_reasons set offer = $3 where shop_id = $1 and id = $2::bigint and deleted_at is null`,
    [shopId, id, offer === null ? null : JSON.stringify(offer)],
  )
  if (!rowCount) throw notFound(REASON_NOT_FOUND)
}
