import type pg from 'pg'
import { type DbClient, queryRow, queryRows } from '../db/pool.ts'
import { abandonedSql, STALE_SECONDS } from './heartbeat.ts'

// The rows of the jobs the app's workers take one at a time (batch_updates, cdp_tag_jobs,
// cdp_segment_exports, contract_exports): each row is `queued`, then `running` under an owner
// (the process, process/owner.ts) that beats `heartbeat_at`, then ended. A running row whose
// owner died, or that wrote nothing for `staleSeconds`, is taken by the next worker. The SQL
// of that life is written here once; each feature keeps its own table and columns, and runs
// its rows through runs/tracked-run.ts.

export type JobTable = {
  table: string
  /** What a claimed or read row answers. */
  columns: string
  /** The id column's type when it is not bigint (`uuid`). */
  idType?: 'uuid'
  /** A running row silent this long counts as abandoned (default STALE_SECONDS, runs/heartbeat.ts). */
  staleSeconds?: number
  /** SQL of the row saying its run was asked to stop (`cancel_requested_at is not null`); none: never. */
  cancelled?: string
  /** Assignments a claim makes besides status, owner and heartbeat (a first start time). */
  claimSets?: string
  /** The order orphans are handed out in. */
  orphanOrder: 'id' | 'created_at'
}

export type JobKey = { shop_id: string; id: string }

/** What a beat finds: whether the row is still this owner's, and whether its run was cancelled. */
export type Beat = { held: boolean; cancelled: boolean }

/** One job table's queries (what `jobTable` answers). */
export type JobRows<Row extends pg.QueryResultRow> = ReturnType<typeof jobTable<Row>>

/** The queries of one job table, for rows of type `Row`. */
export function jobTable<Row extends pg.QueryResultRow>(t: JobTable) {
  const id = t.idType ? `$2::${t.idType}` : '$2'
  const rowId = t.idType ? `$1::${t.idType}` : '$1'
  const staleSeconds = t.staleSeconds ?? STALE_SECONDS
  return {
    find: (db: DbClient, shopId: string, jobId: string) =>
      queryRow<Row>(db, `select ${t.columns} from ${t.table} where shop_id = $1 and id = ${id}`, [
        shopId,
        jobId,
      ]),

    /** The shop's newest rows. */
    latest: (db: DbClient, shopId: string, limit: number) =>
      queryRows<Row>(
        db,
        `select ${t.columns} from ${t.table} where shop_id = $1 order by created_at desc, id limit $2`,
        [shopId, limit],
      ),

    /**
     * Takes the row for `owner`: a queued one, or a running one whose worker is gone (its owner
     * among `deadOwners`, or silent for staleSeconds). Null when it is not there to take.
     */
    claim: (db: DbClient, shopId: string, jobId: string, owner: string, deadOwners: string[]) =>
      queryRow<Row>(
        db,
        `update ${t.table} set status = 'running', owner = $3, heartbeat_at = now(), updated_at = now()
           ${t.claimSets ? `, ${t.claimSets}` : ''}
         where shop_id = $1 and id = ${id}
           and (status = 'queued' or (status = 'running' and ${abandonedSql('$4', '$5')}))
         returning ${t.columns}`,
        [shopId, jobId, owner, deadOwners, staleSeconds],
      ),

    /** Owners of running rows (to tell which of them are dead processes). */
    runningOwners: async (db: DbClient): Promise<string[]> =>
      (
        await queryRows<{ owner: string }>(
          db,
          `select distinct owner from ${t.table} where status = 'running' and owner is not null`,
        )
      ).map((r) => r.owner),

    /** Rows that need a worker: queued ones not started for a minute, running ones whose worker is gone. */
    orphans: (db: DbClient, deadOwners: string[]) =>
      queryRows<JobKey>(
        db,
        `select shop_id::text, id::text from ${t.table}
         where (status = 'queued' and updated_at < now() - interval '1 minute')
            or (status = 'running' and ${abandonedSql('$1', '$2')})
         order by ${t.orphanOrder} limit 100`,
        [deadOwners, staleSeconds],
      ),

    /** Says the row's worker is alive, if the row is still running under `owner`. */
    touch: async (db: DbClient, jobId: string, owner: string): Promise<Beat> => {
      const row = await queryRow<{ cancelled: boolean }>(
        db,
        `update ${t.table} set heartbeat_at = now() where id = ${rowId} and status = 'running' and owner = $2
         returning ${t.cancelled ?? 'false'} as cancelled`,
        [jobId, owner],
      )
      return { held: row !== null, cancelled: row?.cancelled ?? false }
    },

    /**
     * Hands a running row of `owner` back to the queue (its worker hit trouble): the next claim
     * takes it at once. A row another worker has claimed since is left to it.
     */
    release: async (db: DbClient, jobId: string, owner: string): Promise<void> => {
      await db.query(
        `update ${t.table} set status = 'queued', owner = null
         where id = ${rowId} and status = 'running' and owner = $2`,
        [jobId, owner],
      )
    },
  }
}
