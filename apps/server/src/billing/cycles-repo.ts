import type { PricedLine } from '@teiki/domain'
import { type Db, type DbClient, queryRow } from '../db/pool.ts'
import { deadOwners } from '../process/owner.ts'
import { STALE_SECONDS } from '../runs/heartbeat.ts'

/**
 * billing_cycles: one row per (contract, shop-local date of the next billing date that was
 * due). The row is written before the platform is asked, so it (not a process's memory)
 * decides who charges a cycle; its idempotency key makes a create re-sent after a crash
 * return the attempt the platform already made. This file claims and finds the rows; where
 * an outcome takes them is in repo.ts (settleCycle).
 */

/**
 * attempting: the attempt is being charged; challenged: the card's issuer asked for 3-D Secure
 * and the customer has until challenge_expires_at (settle-challenge.ts); retry_scheduled: in
 * dunning; succeeded / failed: settled.
 */
export type CycleStatus = 'attempting' | 'challenged' | 'retry_scheduled' | 'succeeded' | 'failed'
export type CycleOrigin = 'schedule' | 'order_now'

export type CycleRow = {
  id: string
  shop_id: string
  contract_id: string
  /** YYYY-MM-DD in the shop's zone. */
  cycle_date: string
  due_at: Date
  origin: CycleOrigin
  status: CycleStatus
  attempt_no: number
  idempotency_key: string
  attempt_id: string | null
  failure_kind: 'payment' | 'inventory' | null
  error_code: string | null
  error_message: string | null
  next_retry_at: Date | null
  final_action: 'CANCEL' | 'PAUSE' | 'SKIP' | null
  order_id: string | null
  run_id: string | null
  /** The lines and pricing policies read before the charge (migration 0008), or null. */
  line_pricing: PricedLine[] | null
  /** The attempt's 3-D Secure link, when it was seen and until when the customer has (migration 0012). */
  challenge_url: string | null
  challenged_at: Date | null
  challenge_expires_at: Date | null
  updated_at: Date
}

export const CYCLE_COLUMNS = `id::text, shop_id::text, contract_id::text, cycle_date::text, due_at, origin, status,
  attempt_no, idempotency_key, attempt_id::text, failure_kind, error_code, error_message, next_retry_at,
  final_action, order_id::text, run_id::text, line_pricing, challenge_url, challenged_at, challenge_expires_at,
  updated_at`

/** The key of attempt `attemptNo` (0 = the first charge) of a cycle: never random. */
export const billingKey = (contractId: string, cycleDate: string, attemptNo: number) =>
  `billing:${contractId}:${cycleDate}:${attemptNo}`

export type Claim =
  /** This call inserted the row: it owns the first charge. */
  | { kind: 'new'; row: CycleRow }
  /**
   * The row was there, attempting, with no attempt stored, and the run that claimed it is gone:
   * a crashed create to finish.
   */
  | { kind: 'resume'; row: CycleRow }
  /** The cycle is charged, being charged (by a live run too), or in dunning. */
  | { kind: 'existing'; row: CycleRow }

/**
 * Claims a cycle: `insert … on conflict do nothing` in its own transaction, so of several
 * processes only one inserts; the others read the row and are told what it is.
 */
export async function claimCycle(
  db: Db,
  input: {
    shopId: string
    contractId: string
    cycleDate: string
    dueAt: Date
    origin: CycleOrigin
    idempotencyKey: string
    runId: string | null
  },
): Promise<Claim> {
  const inserted = await db.query<CycleRow>(
    `insert into billing_cycles (shop_id, contract_id, cycle_date, due_at, origin, status, attempt_no,
       idempotency_key, run_id)
     values ($1, $2, $3, $4, $5, 'attempting', 0, $6, $7)
     on conflict (shop_id, contract_id, cycle_date) do nothing
     returning ${CYCLE_COLUMNS}`,
    [
      input.shopId,
      input.contractId,
      input.cycleDate,
      input.dueAt,
      input.origin,
      input.idempotencyKey,
      input.runId,
    ],
  )
  if (inserted.rows[0]) return { kind: 'new', row: inserted.rows[0] }
  const { rows } = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from billing_cycles where shop_id = $1 and contract_id = $2 and cycle_date = $3`,
    [input.shopId, input.contractId, input.cycleDate],
  )
  const row = rows[0]
  if (!row) throw new Error(`billing cycle ${input.contractId}/${input.cycleDate} vanished`)
  if (row.status !== 'attempting' || row.attempt_id !== null) return { kind: 'existing', row }
  // Another process's run is creating it right now: not a crash to resume (a second create
  // with the same key would only double the platform calls and the run's counts).
  if (row.run_id !== null && (await liveRuns(db, row.shop_id, [row.run_id])).has(row.run_id)) {
    return { kind: 'existing', row }
  }
  return { kind: 'resume', row }
}

/**
 * Of `runIds`, the runs still running: unfinished, beat within STALE_SECONDS and, when they
 * ran on this host, their process still there. A cycle such a run claimed is in flight; one
 * any other run left unfinished was cut off.
 */
export async function liveRuns(db: DbClient, shopId: string, runIds: string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set()
  const { rows } = await db.query<{ id: string; owner: string | null }>(
    `select id::text, owner from billing_runs
     where shop_id = $1 and id = any($2::bigint[]) and finished_at is null
       and heartbeat_at > now() - make_interval(secs => $3)`,
    [shopId, runIds, STALE_SECONDS],
  )
  const dead = new Set(
    deadOwners(
      rows.flatMap((r) => (r.owner ? [r.owner] : [])),
      { atStart: false },
    ),
  )
  return new Set(rows.filter((r) => r.owner === null || !dead.has(r.owner)).map((r) => r.id))
}

/** Whether the contract's cycle of `cycleDate` has a row (claimed by someone, whatever became of it). */
export async function cycleExists(db: DbClient, shopId: string, contractId: string, cycleDate: string) {
  const { rowCount } = await db.query(
    'select 1 from billing_cycles where shop_id = $1 and contract_id = $2 and cycle_date = $3',
    [shopId, contractId, cycleDate],
  )
  return (rowCount ?? 0) > 0
}

export function findCycle(db: DbClient, shopId: string, cycleId: string) {
  return queryRow<CycleRow>(
    db,
    `select ${CYCLE_COLUMNS} from billing_cycles where shop_id = $1 and id = $2`,
    [shopId, cycleId],
  )
}

/** The cycle an attempt belongs to: by the stored attempt id, else by its key (crash before storing). */
export async function findCycleOfAttempt(
  db: DbClient,
  shopId: string,
  attempt: { id: string; idempotencyKey: string },
): Promise<CycleRow | null> {
  // Every key names its contract (billing:{contract}:…, order-now-{contract}-…).
  // Two index probes, the stored id first: `attempt_id = $2 or idempotency_key = $3` was
  // planned as a scan of the shop's every cycle (test/order-write-growth.test.ts).
  const { rows } = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from (
       (select 0 as pref, * from billing_cycles where shop_id = $1 and attempt_id = $2 limit 1)
       union all
       (select 1, * from billing_cycles where shop_id = $1 and idempotency_key = $3 limit 1)
     ) c order by pref limit 1`,
    [shopId, attempt.id, attempt.idempotencyKey],
  )
  return rows[0] ?? null
}

/**
 * Takes a cycle in dunning to its next attempt (attempt_no + 1, its own key). The update is
 * conditional on the state the caller saw, so of a retry job, a daily run and a "create
 * order now" racing for the same retry exactly one wins. `dueBy`: only when the retry is due.
 */
export function claimRetry(
  db: Db,
  input: { shopId: string; cycleId: string; attemptNo: number; runId: string | null; dueBy?: Date },
) {
  return queryRow<CycleRow>(
    db,
    `update billing_cycles set status = 'attempting', attempt_no = attempt_no + 1,
       idempotency_key = 'billing:' || contract_id::text || ':' || cycle_date::text || ':' || (attempt_no + 1)::text,
       attempt_id = null, next_retry_at = null, run_id = $4, updated_at = now()
     where shop_id = $1 and id = $2 and status = 'retry_scheduled' and attempt_no = $3
       and ($5::timestamptz is null or next_retry_at <= $5)
     returning ${CYCLE_COLUMNS}`,
    [input.shopId, input.cycleId, input.attemptNo, input.runId, input.dueBy ?? null],
  )
}

/**
 * A refused first charge leaves no trace, so the cycle can be charged once the contract is
 * chargeable again; a refused retry ends the cycle's dunning (the contract was paused or
 * ended meanwhile).
 */
export async function recordRefusal(
  db: Db,
  row: CycleRow,
  refusal: { code: string | null; message: string },
): Promise<void> {
  if (row.attempt_no === 0) {
    await db.query(
      `delete from billing_cycles where shop_id = $1 and id = $2 and attempt_no = 0 and attempt_id is null
         and status = 'attempting'`,
      [row.shop_id, row.id],
    )
    return
  }
  await db.query(
    `update billing_cycles set status = 'failed', error_code = $4, error_message = $5, settled_at = now(),
       updated_at = now()
     where shop_id = $1 and id = $2 and attempt_no = $3 and status = 'attempting' and attempt_id is null`,
    [row.shop_id, row.id, row.attempt_no, refusal.code ?? 'REFUSED', refusal.message],
  )
}

/** All of `ids` the shop has (unknown ids are left out). */
export async function findCycles(db: DbClient, shopId: string, ids: string[]): Promise<CycleRow[]> {
  // A primary-key probe per id: a plan on missing or stale statistics took `id = any($2)` as a
  // filter over the shop's every cycle (test/order-write-growth.test.ts).
  const { rows } = await db.query<CycleRow>(
    `select ${CYCLE_COLUMNS} from unnest($2::bigint[]) k(cycle_id)
     cross join lateral (select * from billing_cycles b where b.shop_id = $1 and b.id = k.cycle_id limit 1) c`,
    [shopId, ids],
  )
  return rows
}

/**
 * Stores the id of the attempt the platform made for the row's current attempt number (a
 * re-sent create answers the same attempt, so the same id). Null when the row moved on.
 */
export function storeAttemptId(db: DbClient, row: CycleRow, attemptId: string) {
  return queryRow<CycleRow>(
    db,
    `update billing_cycles set attempt_id = $4, updated_at = now()
     where shop_id = $1 and id = $2 and attempt_no = $3 and (attempt_id is null or attempt_id = $4)
     returning ${CYCLE_COLUMNS}`,
    [row.shop_id, row.id, row.attempt_no, attemptId],
  )
}

/** An outcome that arrived before its create stored the attempt id (a crash between the two). */
export async function adoptAttemptId(db: DbClient, shopId: string, cycleId: string, attemptId: string) {
  await db.query(
    'update billing_cycles set attempt_id = $3 where shop_id = $1 and id = $2 and attempt_id is null',
    [shopId, cycleId, attemptId],
  )
}
