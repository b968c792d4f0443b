import { type DbClient, queryRows } from '../../db/pool.ts'

/** A subscriber's pause of N cycles, resumed by the sweep (resume-sweep.ts) from `resume_at`. */
export async function savePause(
  db: DbClient,
  shopId: string,
  contractId: string,
  cycles: number,
  resumeAt: Date,
): Promise<void> {
  await db.query(
    `insert into contract_pauses (shop_id, contract_id, cycles, resume_at) values ($1, $2, $3, $4)
     on conflict (shop_id, contract_id) do update set cycles = excluded.cycles, resume_at = excluded.resume_at,
       created_at = now()`,
    [shopId, contractId, cycles, resumeAt],
  )
}

export async function endPause(db: DbClient, shopId: string, contractId: string): Promise<void> {
  await db.query('delete from contract_pauses where shop_id = $1 and contract_id = $2', [shopId, contractId])
}

export type DuePause = { shop_id: string; contract_id: string; customer_id: string; status: string }

/** Pauses whose resume time has come, with their contract's mirror status (oldest first). */
export function duePauses(db: DbClient, now: Date, limit: number) {
  return queryRows<DuePause>(
    db,
    `select p.shop_id::text, p.contract_id::text, c.customer_id::text, c.status
       from contract_pauses p
       join subscription_contracts c on c.shop_id = p.shop_id and c.id = p.contract_id
      where p.resume_at <= $1
      order by p.resume_at limit $2`,
    [now, limit],
  )
}

/** The pauses of these contracts still running: contract id → resume time. */
export async function pausesOf(
  db: DbClient,
  shopId: string,
  contractIds: string[],
): Promise<Map<string, Date>> {
  const { rows } = await db.query<{ contract_id: string; resume_at: Date }>(
    'select contract_id::text, resume_at from contract_pauses where shop_id = $1 and contract_id = any($2::bigint[])',
    [shopId, contractIds],
  )
  return new Map(rows.map((r) => [r.contract_id, r.resume_at]))
}
