import type { DbClient } from '../db/pool.ts'
import { type Jobs, startCron } from './boss.ts'

/**
 * `db-analyze` (every hour, embedded database only): what autovacuum's ANALYZE does on a
 * PostgreSQL server. PGlite runs one backend and no autovacuum, so without it the planner would
 * plan a growing mirror from the statistics of its first sync forever (a table it believes
 * small is scanned whole for a few rows: test/order-write-growth.test.ts, ADR 0031). The
 * embedded database holds one demo-sized shop: an ANALYZE of it takes well under a second.
 */
export const STATISTICS_QUEUE = 'db-analyze'

export async function startStatisticsJobs(opts: { jobs: Jobs; db: DbClient }): Promise<void> {
  const hourly = { cron: '17 * * * *', policy: 'singleton', expireInSeconds: 600 } as const
  await startCron(opts.jobs, STATISTICS_QUEUE, hourly, () => opts.db.query('analyze'))
}
