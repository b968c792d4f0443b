import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src/db/embedded.ts'
import { createPool, withTransaction } from '../src/db/pool.ts'
import { tcpListenPorts } from './support/listeners.ts'

/**
 * The embedded database (PGlite behind pglite-socket) under concurrent connections: each
 * connection's Parse/Bind/Execute/Sync sequence must reach PGlite whole (db/embedded.ts).
 * Without keepSequencesWhole, 400 concurrent parameterised queries on 8 connections gave
 * dozens of "bind message supplies N parameters" / "portal does not exist" errors.
 */
describe('embedded database under concurrent connections', () => {
  let embedded: EmbeddedPostgres
  let pool: ReturnType<typeof createPool>

  beforeAll(async () => {
    embedded = await startEmbeddedPostgres({})
    pool = createPool(embedded.url, 8)
    await pool.query('create table counter (id int primary key, n int not null)')
    await pool.query('insert into counter values (1, 0)')
  }, 60_000)

  afterAll(async () => {
    await pool?.end()
    await embedded?.stop()
  })

  it('answers 400 concurrent statements and transactions, each its own answer, without hanging', async () => {
    await pool.query('create table notes (id int primary key, body text not null)')
    const work = Promise.allSettled(
      Array.from({ length: 400 }, async (_, i) => {
        if (i % 4 === 0) {
          return withTransaction(pool, async (tx) => {
            await tx.query('insert into notes values ($1, $2)', [i, 'a'.repeat(i)])
            const { rows } = await tx.query<{ n: number }>(
              'select length(body) as n from notes where id = $1',
              [i],
            )
            return rows[0]!.n
          })
        }
        const { rows } =
          i % 2 === 0
            ? await pool.query<{ v: number }>('select $1::int as v', [i])
            : await pool.query<{ v: number }>('select $1::int + $2::int as v', [i, 0])
        return rows[0]!.v
      }),
    )
    // Unfixed, a connection waits for an answer that never comes: fail instead of timing out.
    let timer: NodeJS.Timeout | undefined
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => resolve('hung'), 20_000)
    })
    const results = await Promise.race([work, hung])
    clearTimeout(timer)
    expect(results).not.toBe('hung')
    const settled = results as PromiseSettledResult<number>[]
    const failures = settled.filter((r) => r.status === 'rejected')
    expect(failures.map((f) => String((f as PromiseRejectedResult).reason))).toEqual([])
    expect(settled.map((r) => (r.status === 'fulfilled' ? r.value : null))).toEqual(
      Array.from({ length: 400 }, (_, i) => i),
    )
  }, 60_000)

  it('keeps concurrent transactions whole: 50 read-modify-write increments give 50', async () => {
    await Promise.all(
      Array.from({ length: 50 }, () =>
        withTransaction(pool, async (tx) => {
          const { rows } = await tx.query<{ n: number }>('select n from counter where id = $1', [1])
          await tx.query('update counter set n = $2 where id = $1', [1, rows[0]!.n + 1])
        }),
      ),
    )
    const { rows } = await pool.query<{ n: number }>('select n from counter where id = 1')
    expect(rows[0]!.n).toBe(50)
  }, 60_000)

  it('reports an error to its own connection and goes on serving the others', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0
          ? pool.query('select $1::int / 0 as v', [i])
          : pool.query<{ v: string }>('select $1::text as v', [`ok-${i}`]),
      ),
    )
    results.forEach((r, i) => {
      if (i % 3 === 0) {
        expect(r.status).toBe('rejected')
        expect(String((r as PromiseRejectedResult).reason)).toContain('division by zero')
      } else {
        expect(r.status).toBe('fulfilled')
        expect((r as PromiseFulfilledResult<{ rows: Array<{ v: string }> }>).value.rows[0]!.v).toBe(`ok-${i}`)
      }
    })
  }, 60_000)
})

// Issue 11 item 7: PGlite has no authentication, so its socket is a unix socket in a folder
// only this user can enter; no TCP port is opened.
describe('where the embedded database listens', () => {
  const dirs: string[] = []
  const temp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'teiki-sock-'))
    dirs.push(dir)
    return dir
  }
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const mode = (path: string) => statSync(path).mode & 0o777

  it('on a unix socket in the given folder (0700, socket 0600), with no TCP port; data folder 0700', async () => {
    const root = temp()
    // A process killed with SIGKILL leaves its socket file behind: it is replaced.
    mkdirSync(join(root, 'socket'), { mode: 0o755 })
    writeFileSync(join(root, 'socket', '.s.PGSQL.5432'), '')
    const before = tcpListenPorts()
    const db = await startEmbeddedPostgres({ dataDir: join(root, 'pglite'), socketDir: join(root, 'socket') })
    try {
      expect(tcpListenPorts()).toEqual(before)
      expect(db.socketPath).toBe(join(root, 'socket', '.s.PGSQL.5432'))
      expect(statSync(db.socketPath).isSocket()).toBe(true)
      expect(mode(db.socketPath)).toBe(0o600)
      expect(mode(join(root, 'socket'))).toBe(0o700)
      expect(mode(join(root, 'pglite'))).toBe(0o700)
      expect(new URLSearchParams(db.url.split('?')[1]).get('host')).toBe(join(root, 'socket'))
      const pool = createPool(db.url, 2)
      expect((await pool.query<{ n: number }>('select 1 as n')).rows).toEqual([{ n: 1 }])
      await pool.end()
    } finally {
      await db.stop()
    }
    expect(existsSync(db.socketPath)).toBe(false)
  }, 90_000)

  it('falls back to a private temp folder when the path is too long for a socket', async () => {
    const long = join(temp(), 'a-folder-name-long-enough-that-the-socket-path-passes-the-limit-of-sun-path')
    const logged: string[] = []
    const db = await startEmbeddedPostgres({ socketDir: long, log: (m) => logged.push(m) })
    try {
      expect(Buffer.byteLength(db.socketPath)).toBeLessThanOrEqual(100)
      expect(dirname(db.socketPath).startsWith(tmpdir())).toBe(true)
      expect(mode(dirname(db.socketPath))).toBe(0o700)
      expect(logged.join('\n')).toContain('長すぎる')
      const pool = createPool(db.url, 1)
      expect((await pool.query('select 2 as n')).rows).toEqual([{ n: 2 }])
      await pool.end()
    } finally {
      await db.stop()
    }
    expect(existsSync(dirname(db.socketPath))).toBe(false)
  }, 90_000)
})
