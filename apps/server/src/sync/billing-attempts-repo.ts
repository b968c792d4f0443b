import type { DbClient } from '../db/pool.ts'

export type BillingAttemptRecord = {
  id: string
  contract_id: string
  idempotency_key: string
  ready: boolean
  error_code: string | null
  error_message: string | null
  order_id: string | null
  created_at: string
}

/**
 * Upserts an attempt; true when the row is new or its outcome changed, so the billing event
 * is appended once per outcome even if the platform sends the outcome again.
 */
export async function upsertBillingAttempt(
  db: DbClient,
  shopId: string,
  a: BillingAttemptRecord,
): Promise<boolean> {
  const previous = await db.query<{ ready: boolean; error_code: string | null; order_id: string | null }>(
    'select ready, error_code, order_id from billing_attempts where shop_id = $1 and id = $2 for update',
    [shopId, a.id],
  )
  await db.query(
    `insert into billing_attempts (shop_id, id, contract_id, idempotency_key, created_at, ready, error_code,
       error_message, order_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (shop_id, id) do update set ready = billing_attempts.ready or excluded.ready,
       error_code = coalesce(excluded.error_code, billing_attempts.error_code),
       error_message = coalesce(excluded.error_message, billing_attempts.error_message),
       order_id = coalesce(excluded.order_id, billing_attempts.order_id)`,
    [
      shopId,
      a.id,
      a.contract_id,
      a.idempotency_key,
      a.created_at,
      a.ready,
      a.error_code,
      a.error_message,
      a.order_id,
    ],
  )
  const before = previous.rows[0]
  if (!before) return true
  return (
    before.ready !== a.ready ||
    (before.error_code ?? null) !== a.error_code ||
    String(before.order_id ?? '') !== String(a.order_id ?? '')
  )
}
