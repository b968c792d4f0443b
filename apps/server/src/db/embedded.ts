import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

export type EmbeddedPostgres = { url: string; stop(): Promise<void> }

/**
 * The no-configuration database: PGlite (PostgreSQL compiled to WASM) in a data folder,
 * served over the PostgreSQL wire protocol so the app keeps one code path (`pg`) whether
 * it talks to this or to a real server. `dataDir` undefined keeps it in memory (tests).
 */
export async function startEmbeddedPostgres(opts: {
  dataDir?: string
  port?: number
}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) await mkdir(opts.dataDir, { recursive: true })
  const db = await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir } : {})
  // The socket server's multiplexer queues statements from several connections and keeps a
  // transaction on one connection until it ends, so a pg.Pool works over it once each
  // connection's extended-protocol sequences are kept whole (keepSequencesWhole).
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: opts.port ?? 0, maxConnections: 32 })
  keepSequencesWhole(server)
  await server.start()
  // getServerConn() gives "host:port", with the real port when 0 was asked for.
  const conn = server.getServerConn()
  return {
    url: `postgres://postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop()
      await db.close()
    },
  }
}

/**
 * Frontend messages that belong to an extended-protocol sequence ending in Sync: Parse, Bind,
 * Describe, Execute, Close. Anything else (Sync, Flush, a simple Query, Terminate, the startup
 * message, COPY data) ends the sequence and is sent on.
 */
const SEQUENCE_PARTS = new Set(['P', 'B', 'D', 'E', 'C'].map((c) => c.charCodeAt(0)))

type QueueManager = {
  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number>
}

/**
 * pglite-socket 0.2.17 hands PGlite one protocol *message* at a time and lets another
 * connection's message in between: a connection awaits each message before it reads the next,
 * so two connections' Parse/Bind/Execute/Sync sequences interleave on PGlite's single backend.
 * One connection's Bind then meets the other's unnamed statement ("bind message supplies 1
 * parameters, but prepared statement "" requires 2", "portal "" cannot be run"), and a
 * connection can wait for an answer that never comes (measured: 39 errors in 400 concurrent
 * parameterised queries on 8 connections).
 *
 * The fix: the parts of a sequence are held back (answered at once: they produce no output
 * before Sync in PGlite's single-user loop) and queued together, in order, with the message
 * that ends the sequence. Enqueueing is synchronous, so no other connection's message can come
 * between them; the queue runs its entries in order, and during a transaction only the
 * transaction's connection's (the socket server's own rule). Each part's output still goes to
 * its own connection through its callback.
 */
export function keepSequencesWhole(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueueManager }).queryQueue
  const enqueue = queue.enqueue.bind(queue)
  const held = new Map<number, Array<{ message: Uint8Array; onData: (data: Uint8Array) => void }>>()
  queue.enqueue = (handlerId, message, onData) => {
    const parts = held.get(handlerId) ?? []
    if (message.length > 0 && SEQUENCE_PARTS.has(message[0]!)) {
      parts.push({ message, onData })
      held.set(handlerId, parts)
      return Promise.resolve(0)
    }
    held.delete(handlerId)
    const sent = parts.map((p) => enqueue(handlerId, p.message, p.onData))
    sent.push(enqueue(handlerId, message, onData))
    return Promise.all(sent).then((bytes) => bytes.reduce((sum, n) => sum + n, 0))
  }
}
