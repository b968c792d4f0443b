import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { privateDir, tightenDataDir } from '../local-secrets.ts'

export type EmbeddedPostgres = {
  /** postgres://… through the unix socket (`host` is its folder); no TCP port is opened. */
  url: string
  /** The socket file itself. */
  socketPath: string
  stop(): Promise<void>
}

/** libpq's and `pg`'s name for a server's socket in its folder (port 5432). */
const SOCKET_NAME = '.s.PGSQL.5432'
/** sun_path holds 108 bytes with its NUL on Linux (104 on macOS): keep below both. */
const MAX_SOCKET_PATH = 100

/**
 * The no-configuration database: PGlite (PostgreSQL compiled to WASM) in a data folder,
 * served over the PostgreSQL wire protocol so the app keeps one code path (`pg`) whether
 * it talks to this or to a real server. `dataDir` undefined keeps it in memory (tests).
 *
 * PGlite has no authentication: whoever reaches the socket is its superuser. So it listens on
 * a unix socket, never TCP, in a folder only this user can enter (0700): `socketDir` (the
 * data folder's `socket/`), or, when that path is too long for a socket or none is given, a
 * fresh private folder in the system's temp folder, removed at stop.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir?: string
  socketDir?: string
  log?: (message: string) => void
}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) privateDir(opts.dataDir, opts.log)
  const socket = socketFolder(opts.socketDir, opts.log)
  const db = await PGlite.create(opts.dataDir ? { dataDir: opts.dataDir } : {})
  // PGlite unpacks a new cluster with its archive's modes (0666), whatever the umask.
  if (opts.dataDir) tightenDataDir(opts.dataDir)
  // The socket server's multiplexer queues statements from several connections and keeps a
  // transaction on one connection until it ends, so a pg.Pool works over it once each
  // connection's extended-protocol sequences are kept whole (keepSequencesWhole).
  const server = new PGLiteSocketServer({ db, path: socket.path, maxConnections: 32 })
  keepSequencesWhole(server)
  try {
    await server.start()
    chmodSync(socket.path, 0o600)
  } catch (error) {
    await db.close()
    socket.remove()
    throw error
  }
  return {
    url: `postgres://postgres@/postgres?host=${encodeURIComponent(socket.dir)}&sslmode=disable`,
    socketPath: socket.path,
    async stop() {
      await server.stop()
      await db.close()
      if (opts.dataDir) tightenDataDir(opts.dataDir)
      socket.remove()
    },
  }
}

function socketFolder(wanted: string | undefined, log?: (message: string) => void) {
  if (wanted && Buffer.byteLength(join(wanted, SOCKET_NAME)) <= MAX_SOCKET_PATH) {
    privateDir(wanted, log)
    const path = join(wanted, SOCKET_NAME)
    // Left by a process that died: the caller holds the data folder's lock, so it is stale.
    rmSync(path, { force: true })
    return { dir: wanted, path, remove: () => rmSync(path, { force: true }) }
  }
  if (wanted) log?.(`[teiki] ${wanted} はソケットのパスとして長すぎるため、一時フォルダにソケットを作ります`)
  // mkdtemp creates the folder 0700.
  const dir = mkdtempSync(join(tmpdir(), 'teiki-pg-'))
  const path = join(dir, SOCKET_NAME)
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(
      `一時フォルダのパスが長すぎてソケットを作れません（${path}）。TMPDIR を短いパスにしてください`,
    )
  }
  return { dir, path, remove: () => rmSync(dir, { recursive: true, force: true }) }
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
