import pg from 'pg'

// bigint and numeric come back as strings by default; ids are compared as strings at the
// API edge anyway (they exceed 2^53 for some platform objects), so keep the default.
export function createPool(url: string, max = 10, opts: { genericPlans?: boolean } = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    // The hot-path statements are written so their generic plan is the good one (index
    // ranges on parameters, no LIKE): planning them once per connection instead of on every
    // call halves the database's CPU per search. See docs/decisions/0004.
    ...(opts.genericPlans ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
  })
  pool.on('error', (error) => {
    // An idle client lost its connection (server restart). The pool replaces it.
    console.error('[db] idle client error', error.message)
  })
  return pool
}

export type Db = pg.Pool
export type DbClient = pg.PoolClient | pg.Pool

/** Runs `fn` in one transaction on one connection. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    const result = await fn(client)
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

// Named (prepared) statements skip parsing and planning on every call, which matters on the
// search hot path. PGlite serves every socket connection from one backend session, where
// two connections preparing the same name collide, so the embedded database runs unnamed.
let preparedStatements = true

export function setPreparedStatements(enabled: boolean): void {
  preparedStatements = enabled
}

/** A query config that is prepared once per connection where the database allows it. */
export function statement(name: string, text: string, values: unknown[]): pg.QueryConfig {
  return preparedStatements ? { name, text, values } : { text, values }
}

/** The rows a query answers. */
export async function queryRows<T extends pg.QueryResultRow>(
  db: DbClient,
  query: string | pg.QueryConfig,
  values?: unknown[],
): Promise<T[]> {
  return (await db.query<T>(query, values)).rows
}

/** The first row a query answers, or null when it answers none. */
export async function queryRow<T extends pg.QueryResultRow>(
  db: DbClient,
  query: string | pg.QueryConfig,
  values?: unknown[],
): Promise<T | null> {
  return (await db.query<T>(query, values)).rows[0] ?? null
}
