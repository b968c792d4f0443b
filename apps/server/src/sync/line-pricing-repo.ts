import type { PricedLine } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'

// The lines' pricing policies the mirror keeps per contract (migration 0013), with the state of
// the contract (revision and updatedAt) they were true at. Written by the first sync's bulk
// export and by the billing engine; trusted only while the platform's contract is at that state.

/** A state of a contract on the platform: its revision and updatedAt (seconds only: both are compared). */
export type ContractState = { revisionId: string | null; updatedAt: string }

export type KeptLinePricing = { contractId: string; state: ContractState; lines: PricedLine[] }

/**
 * Keeps each contract's lines and policies as read at `state`, for contracts the mirror holds
 * at exactly that state (a newer write since leaves them unkept: they would be stale at once).
 */
export async function keepContractLinePricing(
  db: DbClient,
  shopId: string,
  kept: KeptLinePricing[],
): Promise<number> {
  if (kept.length === 0) return 0
  const { rowCount } = await db.query(
    `update subscription_contracts c set line_pricing = r.lines, line_pricing_revision = r.revision_id,
       line_pricing_updated_at = r.updated_at
     from jsonb_to_recordset($2::jsonb) as r(contract_id bigint, revision_id text, updated_at timestamptz, lines jsonb)
     where c.shop_id = $1 and c.id = r.contract_id and c.updated_at = r.updated_at
       and c.revision_id is not distinct from r.revision_id
       -- The keys as an index condition: joined on the recordset alone, a generic plan reads
       -- every contract of the shop to update one (test/order-write-growth.test.ts).
       and c.id = any(array(select (e->>'contract_id')::bigint from jsonb_array_elements($2::jsonb) e))`,
    [
      shopId,
      JSON.stringify(
        kept.map((k) => ({
          contract_id: k.contractId,
          revision_id: k.state.revisionId,
          updated_at: k.state.updatedAt,
          lines: k.lines,
        })),
      ),
    ],
  )
  return rowCount ?? 0
}

/**
 * Before a write of the app's own that changes only what it says (next billing date,
 * attributes, the prices in `lines`) is laid over the mirror: the lines' policies, true at
 * `from`, stay true at `to`, the write's answer. Kept only when the mirror holds the state
 * `from` (else they are left as they were: stale for the next charge).
 */
export async function carryLinePricing(
  db: DbClient,
  shopId: string,
  contractId: string,
  lines: PricedLine[],
  from: ContractState,
  to: ContractState,
): Promise<void> {
  await db.query(
    `update subscription_contracts set line_pricing = $7, line_pricing_revision = $5, line_pricing_updated_at = $6
     where shop_id = $1 and id = $2 and updated_at = $4 and revision_id is not distinct from $3`,
    [shopId, contractId, from.revisionId, from.updatedAt, to.revisionId, to.updatedAt, JSON.stringify(lines)],
  )
}
