import type pg from 'pg'
import { type Db, statement } from '../db/pool.ts'

/**
 * One database statement (or transaction) at a time per process on the embedded database
 * (PGlite); nothing of this on PostgreSQL.
 *
 * Why: PGlite serves every socket connection from one backend, and the socket server's
 * multiplexer (pglite-socket 0.2.17) queues each protocol *message* on its own, so two
 * connections' extended-protocol sequences (Parse/Bind/Execute/Sync) interleave: one
 * connection's Bind meets the other's unnamed statement ("bind message supplies 1 parameters,
 * but prepared statement "" requires 2", "portal "" cannot be run"), and a connection can be
 * left waiting for an answer that never comes. The billing run's concurrent workers and the
 * burst of billing webhooks they cause hit it at once. PGlite executes one statement at a
 * time anyway, so serialising statements costs no throughput; platform calls stay concurrent.
 * The real fix belongs in db/embedded.ts (keep a connection's messages together until Sync);
 * until then main.ts runs the whole embedded app through this gate, and the billing engine
 * and the job queue gate themselves wherever they run (tests, the CLI).
 *
 * The gate is taken per statement, and from BEGIN to COMMIT/ROLLBACK for a transaction:
 * while a transaction is open PGlite serves only its connection, so a statement of another
 * connection holding the gate would wait for it forever. Code inside a transaction must use
 * the transaction's client only (all of this codebase does). A client held outside a
 * transaction (the CSV export's) takes the gate per statement.
 */
export type DbGate = {
  /** The pool, gated (the same object for the same pool). */
  readonly db: Db
}

const gates = new WeakMap<object, DbGate>()
const gated = new WeakMap<object, DbGate>()

/** True when the process runs on the embedded database (unnamed statements only, see db/pool.ts). */
export function isEmbeddedDatabase(): boolean {
  return !('name' in statement('teiki-probe', 'select 1', []))
}

/** `pool` gated on the embedded database; the pool itself (ungated) on PostgreSQL. */
export function billingDb(pool: Db): DbGate {
  if (!isEmbeddedDatabase()) return { db: pool }
  return serialDb(pool)
}

/** `pool` behind a per-process gate (idempotent: a gated pool answers its own gate). */
export function serialDb(pool: Db): DbGate {
  const own = gated.get(pool) ?? gates.get(pool)
  if (own) return own
  const gate = createGate(pool)
  gates.set(pool, gate)
  gated.set(gate.db, gate)
  return gate
}

type Query = (...args: unknown[]) => Promise<pg.QueryResult>

const textOf = (args: unknown[]): string => {
  const first = args[0]
  const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '')
  return text.trim().toLowerCase()
}
const BEGINS = /^(begin|start\s+transaction)\b[^;]*;?$/
const ENDS = /^(commit|rollback|end|abort)\b/

function createGate(pool: Db): DbGate {
  let tail: Promise<void> = Promise.resolve()
  const acquire = async (): Promise<() => void> => {
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const before = tail
    tail = before.then(() => held)
    await before
    return release
  }
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    const release = await acquire()
    try {
      return await fn()
    } finally {
      release()
    }
  }
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect()
    const clientQuery: Query = (...args) => (client.query as unknown as Query).apply(client, args)
    /** The gate, while this client is inside a transaction. */
    let holding: (() => void) | null = null
    const let_go = () => {
      holding?.()
      holding = null
    }
    const query: Query = async (...args) => {
      const text = textOf(args)
      if (holding) {
        try {
          return await clientQuery(...args)
        } finally {
          if (ENDS.test(text)) let_go()
        }
      }
      if (BEGINS.test(text)) {
        holding = await acquire()
        try {
          return await clientQuery(...args)
        } catch (error) {
          let_go()
          throw error
        }
      }
      return run(() => clientQuery(...args))
    }
    let released = false
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') return query
        if (prop === 'release') {
          return (error?: Error | boolean) => {
            if (released) return
            released = true
            let_go()
            target.release(error)
          }
        }
        return Reflect.get(target, prop, receiver)
      },
    })
  }

  // A pool-level statement takes its connection before the gate, like a client does: whoever
  // holds the gate never waits for a connection (with every connection taken by clients queued
  // at the gate, that wait would never end).
  const query: Query = async (...args) => {
    const client = await connect()
    try {
      return await client.query(...(args as [string]))
    } finally {
      client.release()
    }
  }
  const db = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'query') return query
      if (prop === 'connect') return connect
      return Reflect.get(target, prop, receiver)
    },
  })
  return { db }
}
