import type pg from 'pg'
import { inject } from 'vitest'
import { startEmbeddedPostgres } from '../../src/db/embedded.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createPool, setPreparedStatements } from '../../src/db/pool.ts'
import { freshDatabase } from './app-process.ts'

/**
 * What the database did, from its own cumulative statistics over the user tables: buffers
 * touched (heap, index and TOAST pages, hit or read), rows read (sequential and by index) and
 * rows written (inserted, updated, deleted: the triggers' writes too). Counters, not clocks:
 * the same work gives the same figures on a loaded machine.
 */
export type DbWork = {
  blocks: number
  rowsRead: number
  rowsWritten: number
  /** The tables that read the most rows (name: rows read), for the message of a failure. */
  top: Record<string, number>
}

/**
 * A database of its own (its statistics are nobody else's), migrated, with autovacuum off on
 * its tables (a vacuum's reads would land in the counters when it happens to run), and the
 * pool the app and the test share, made as the test run makes its pools.
 */
export async function isolatedDatabase(label: string): Promise<{ pool: pg.Pool; drop(): Promise<void> }> {
  const postgres = inject('databaseKind') === 'postgresql'
  setPreparedStatements(postgres)
  if (postgres) {
    const db = await freshDatabase(label)
    const pool = createPool(db.url, 4, { genericPlans: true })
    await pool.query(`do $$ declare t record; begin
      for t in select schemaname, relname from pg_stat_user_tables loop
        execute format('alter table %I.%I set (autovacuum_enabled = false)', t.schemaname, t.relname);
      end loop; end $$`)
    return { pool, drop: db.drop }
  }
  const embedded = await startEmbeddedPostgres({})
  const pool = createPool(embedded.url, 4)
  await migrate(pool)
  return { pool, drop: () => embedded.stop() }
}

/**
 * Every connection of the pool reports what it has counted so far (a backend otherwise reports
 * when idle, at most once a second), then the counters are zeroed: what follows is measured.
 */
export async function resetWork(pool: pg.Pool): Promise<void> {
  await flush(pool)
  await pool.query('select pg_stat_reset()')
}

export async function measureWork(pool: pg.Pool): Promise<DbWork> {
  await flush(pool)
  const { rows } = await pool.query<DbWork>(
    `select
       (select coalesce(sum(heap_blks_hit + heap_blks_read + coalesce(idx_blks_hit, 0) + coalesce(idx_blks_read, 0)
          + coalesce(toast_blks_hit, 0) + coalesce(toast_blks_read, 0) + coalesce(tidx_blks_hit, 0)
          + coalesce(tidx_blks_read, 0)), 0)::float8 from pg_statio_user_tables) as blocks,
       (select coalesce(sum(seq_tup_read + coalesce(idx_tup_fetch, 0)), 0)::float8 from pg_stat_user_tables) as "rowsRead",
       (select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::float8 from pg_stat_user_tables) as "rowsWritten",
       (select coalesce(jsonb_object_agg(relname, n), '{}') from (
          select relname, seq_tup_read + coalesce(idx_tup_fetch, 0) as n from pg_stat_user_tables
          order by 2 desc limit 5) t) as top`,
  )
  return rows[0]!
}

/** Each open connection, held at once so none is handed out twice, reports its counters. */
async function flush(pool: pg.Pool): Promise<void> {
  const clients = await Promise.all(
    Array.from({ length: Math.max(1, pool.totalCount) }, () => pool.connect()),
  )
  try {
    // Forced at the end of the statement's transaction, before the answer is sent.
    for (const c of clients) await c.query('select pg_stat_force_next_flush()')
    for (const c of clients) await c.query('select pg_stat_clear_snapshot()')
  } finally {
    for (const c of clients) c.release()
  }
}

/** Work per item, each figure divided by `items`. */
export const perItem = (w: DbWork, items: number): DbWork => ({
  blocks: w.blocks / items,
  rowsRead: w.rowsRead / items,
  rowsWritten: w.rowsWritten / items,
  top: Object.fromEntries(Object.entries(w.top).map(([k, v]) => [k, Math.round(v / items)])),
})
