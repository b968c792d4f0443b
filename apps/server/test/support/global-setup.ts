import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { startEmbeddedPostgres } from '../../src/db/embedded.ts'
import { migrate } from '../../src/db/migrate.ts'
import { createPool } from '../../src/db/pool.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
    databaseKind: 'postgresql' | 'pglite'
  }
}

/**
 * One migrated database for the whole server test run. With DATABASE_URL (CI) a fresh
 * database is created on that PostgreSQL server and dropped afterwards; without it one
 * in-memory PGlite is shared by every worker over its socket. Test files isolate themselves
 * by using their own shops, which is also what the isolation tests check.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL
  if (base) {
    const name = `teiki_test_${process.pid}_${Date.now()}`
    const admin = new pg.Client({ connectionString: base })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    const url = new URL(base)
    url.pathname = `/${name}`
    const pool = createPool(url.toString(), 2)
    await migrate(pool)
    await pool.end()
    project.provide('databaseUrl', url.toString())
    project.provide('databaseKind', 'postgresql')
    return async () => {
      const drop = new pg.Client({ connectionString: base })
      await drop.connect()
      await drop.query(`drop database if exists ${name} with (force)`)
      await drop.end()
    }
  }
  const embedded = await startEmbeddedPostgres({})
  const pool = createPool(embedded.url, 2)
  await migrate(pool)
  await pool.end()
  project.provide('databaseUrl', embedded.url)
  project.provide('databaseKind', 'pglite')
  return () => embedded.stop()
}
