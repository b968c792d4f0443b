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
  // transaction on one connection until it ends, so a pg.Pool works over it.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: opts.port ?? 0, maxConnections: 32 })
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
