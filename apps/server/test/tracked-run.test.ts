import { spawnSync } from 'node:child_process'
import { hostname } from 'node:os'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { PROCESS_OWNER } from '../src/process/owner.ts'
import { jobTable } from '../src/runs/job-rows.ts'
import { RunStopped, runTracked, sweepOrphans } from '../src/runs/tracked-run.ts'
import { STAMP, testPool } from './support/fixtures.ts'

// The tracked run (runs/tracked-run.ts, ADR 0036) on a job table of its own: claim, beat,
// cancel and lost claim through the signal, release on a throw, and the sweep of orphans.

const TABLE = `tracked_run_test_${STAMP.replace(/\W/g, '_')}`
const SHOP = '1'

type Row = { shop_id: string; id: string; status: string; owner: string | null }

const rows = jobTable<Row>({
  table: TABLE,
  columns: 'shop_id::text, id::text, status, owner',
  cancelled: 'cancel_requested_at is not null',
  orphanOrder: 'id',
})

let pool: pg.Pool

beforeAll(async () => {
  pool = testPool()
  await pool.query(`create table ${TABLE} (
    shop_id bigint not null, id bigserial primary key, status text not null default 'queued',
    owner text, heartbeat_at timestamptz, cancel_requested_at timestamptz,
    created_at timestamptz not null default now(), updated_at timestamptz not null default now())`)
})
afterAll(async () => {
  await pool.query(`drop table if exists ${TABLE}`)
  await pool.end()
})

async function insert(sets = ''): Promise<string> {
  const { rows: made } = await pool.query<{ id: string }>(
    `insert into ${TABLE} (shop_id) values ($1) returning id::text`,
    [SHOP],
  )
  const id = made[0]!.id
  if (sets) await pool.query(`update ${TABLE} set ${sets} where id = $1`, [id])
  return id
}

async function read(id: string) {
  const { rows: found } = await pool.query<{ status: string; owner: string | null; age: number }>(
    `select status, owner, extract(epoch from now() - heartbeat_at)::float as age from ${TABLE} where id = $1`,
    [id],
  )
  return found[0]!
}

/** A pid of this host that no longer runs (a child that has exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(child.stdout.toString())
}

const spec = (id: string, more: { beatMs?: number; checkMs?: number } = {}) => ({
  db: pool,
  rows,
  shopId: SHOP,
  id,
  ...more,
})

describe('runTracked', () => {
  it('claims a queued row for this process, once: a second run finds it taken and does nothing', async () => {
    const id = await insert()
    let second: unknown = 'not run'
    const ran = await runTracked(spec(id), async (run) => {
      expect(run.row).toMatchObject({ id, status: 'running', owner: PROCESS_OWNER })
      expect(await read(id)).toMatchObject({ status: 'running', owner: PROCESS_OWNER })
      second = await runTracked(spec(id), async () => 'ran twice')
      await pool.query(`update ${TABLE} set status = 'done', owner = null where id = $1`, [id])
      return 'done'
    })
    expect(ran).toEqual({ value: 'done' })
    expect(second).toBeNull()
    // An ended row is never claimed again.
    expect(await runTracked(spec(id), async () => 'again')).toBeNull()
  })

  it('beats while the work runs, and stops beating when it ends', async () => {
    const id = await insert()
    const age = async () => (await read(id)).age
    await runTracked(spec(id, { beatMs: 20 }), async () => {
      await pool.query(`update ${TABLE} set heartbeat_at = now() - interval '1 hour' where id = $1`, [id])
      await vi.waitFor(async () => expect(await age()).toBeLessThan(60), { timeout: 5_000, interval: 20 })
    })
    await pool.query(`update ${TABLE} set heartbeat_at = now() - interval '1 hour' where id = $1`, [id])
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await age()).toBeGreaterThan(3000)
  })

  it('fires the signal when the run is cancelled; check() reads the cancel at once', async () => {
    const id = await insert()
    const ran = await runTracked(spec(id, { checkMs: 0 }), async (run) => {
      expect(await run.check()).toBe(false)
      await pool.query(`update ${TABLE} set cancel_requested_at = now() where id = $1`, [id])
      expect(await run.check()).toBe(true)
      expect(run.signal.reason).toBeInstanceOf(RunStopped)
      expect((run.signal.reason as RunStopped).why).toBe('cancelled')
      run.throwIfLost() // cancelled is not lost: the runner ends the run itself
      return 'ended as cancelled'
    })
    expect(ran).toEqual({ value: 'ended as cancelled' })
  })

  it('fires the signal from the beats alone when the run is cancelled meanwhile', async () => {
    const id = await insert()
    await runTracked(spec(id, { beatMs: 20 }), async (run) => {
      await pool.query(`update ${TABLE} set cancel_requested_at = now() where id = $1`, [id])
      await vi.waitFor(() => expect(run.signal.aborted).toBe(true), { timeout: 5_000, interval: 10 })
    })
  })

  it('sees a cancel asked before the claim (a dead worker’s run resumed) before any work', async () => {
    const id = await insert(`cancel_requested_at = now()`)
    const ran = await runTracked(spec(id), async (run) => run.signal.aborted)
    expect(ran).toEqual({ value: true })
  })

  it('hands the row back to the queue when the work throws, and throws', async () => {
    const id = await insert()
    const failure = new Error('platform unreachable')
    await expect(runTracked(spec(id), async () => Promise.reject(failure))).rejects.toBe(failure)
    expect(await read(id)).toMatchObject({ status: 'queued', owner: null })
    // Handed back: the next try claims it at once.
    expect(await runTracked(spec(id), async () => 'resumed')).toEqual({ value: 'resumed' })
  })

  it('a claim lost to another worker fires the signal; the row is left to it, nothing thrown', async () => {
    const id = await insert()
    const ran = await runTracked(spec(id, { checkMs: 0 }), async (run) => {
      await pool.query(`update ${TABLE} set owner = 'elsewhere:1' where id = $1`, [id])
      expect(await run.check()).toBe(true)
      expect((run.signal.reason as RunStopped).why).toBe('lost')
      run.throwIfLost()
      return 'not reached'
    })
    expect(ran).toBeNull()
    expect(await read(id)).toMatchObject({ status: 'running', owner: 'elsewhere:1' })
  })

  it('takes over a running row whose owner died on this host, or that went silent elsewhere; not a live one', async () => {
    const dead = await insert(
      `status = 'running', owner = '${hostname()}:${deadPid()}', heartbeat_at = now()`,
    )
    const silent = await insert(
      `status = 'running', owner = 'another-host:7', heartbeat_at = now() - interval '3 minutes'`,
    )
    const live = await insert(`status = 'running', owner = 'another-host:7', heartbeat_at = now()`)
    expect(await runTracked(spec(dead), async () => 'resumed')).toEqual({ value: 'resumed' })
    expect(await runTracked(spec(silent), async () => 'resumed')).toEqual({ value: 'resumed' })
    expect(await runTracked(spec(live), async () => 'resumed')).toBeNull()
  })
})

describe('sweepOrphans', () => {
  it('hands out the rows that need a worker, and only those', async () => {
    await pool.query(`update ${TABLE} set status = 'done', owner = null`)
    const queuedLong = await insert(`updated_at = now() - interval '2 minutes'`)
    await insert() // queued a moment ago: its queue job is about to take it
    const deadOwner = await insert(
      `status = 'running', owner = '${hostname()}:${deadPid()}', heartbeat_at = now()`,
    )
    const silent = await insert(
      `status = 'running', owner = 'another-host:7', heartbeat_at = now() - interval '3 minutes'`,
    )
    await insert(`status = 'running', owner = 'another-host:7', heartbeat_at = now()`)
    const mine = await insert(`status = 'running', owner = '${PROCESS_OWNER}', heartbeat_at = now()`)
    await insert(
      `status = 'done', heartbeat_at = now() - interval '1 hour', updated_at = now() - interval '1 hour'`,
    )

    const sent: string[] = []
    const resume = async (key: { shop_id: string; id: string }) => {
      expect(key.shop_id).toBe(SHOP)
      sent.push(key.id)
    }
    expect(await sweepOrphans(pool, rows, false, resume)).toBe(3)
    expect(sent.sort()).toEqual([queuedLong, deadOwner, silent].sort())
    // At start, this process owns nothing yet: a row under its pid is a predecessor's.
    sent.length = 0
    expect(await sweepOrphans(pool, rows, true, resume)).toBe(4)
    expect(sent).toContain(mine)
  })
})
