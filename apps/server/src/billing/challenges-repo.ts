import { type DbClient, queryRows } from '../db/pool.ts'
import { CYCLE_COLUMNS, type CycleRow } from './cycles-repo.ts'

// billing_cycles rows waiting for a customer's 3-D Secure (migration 0012).

/**
 * Takes an attempting cycle to `challenged` with the link and its deadline; false when another
 * path moved the cycle first (it settled, or recorded the challenge already).
 */
export async function recordChallenge(
  db: DbClient,
  row: CycleRow,
  challenge: { url: string; at: Date; expiresAt: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update billing_cycles set status = 'challenged', challenge_url = $4, challenged_at = $5,
       challenge_expires_at = $6, updated_at = now()
     where shop_id = $1 and id = $2 and attempt_no = $3 and status = 'attempting'`,
    [row.shop_id, row.id, row.attempt_no, challenge.url, challenge.at, challenge.expiresAt],
  )
  return rowCount === 1
}

/** The shop's cycles waiting for the customer, earliest deadline first. */
export function challengedCycles(db: DbClient, shopId: string) {
  return queryRows<CycleRow>(
    db,
    `select ${CYCLE_COLUMNS} from billing_cycles where shop_id = $1 and status = 'challenged'
     order by challenge_expires_at, id`,
    [shopId],
  )
}
