import { type SegmentData, ZSegment, ZSegmentData } from '@teiki/contract'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { type AppProcess, onPostgres, useProcessWorld } from './support/app-process.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 15 on real processes: the server (apps/server/src/main.ts) runs a segment's tag batch as
// its pg-boss job and is killed with SIGKILL twice mid-way, then started again each time. The
// platform (an emulator this test process owns, so it outlives every kill) must show every
// customer of the segment with the tag, each asked for by exactly one tagsAdd (a customer a
// killed worker had asked for is read first, not tagged again), and the job's counts must add
// up to its total once (no customer counted twice).

const SHOP = testDomain('kill-tags')
const SECRET = 'tag-sigkill-secret'
const TAG = '一括タグ'
const KILL_AT = [40, 120]
let shopId: string

const env = useProcessWorld({ label: 'tagkill', shops: [{ domain: SHOP, contracts: 300 }] })
beforeAll(async () => {
  if (!onPostgres()) return
  shopId = (await env.world.install(SHOP, SECRET)).id
}, 180_000)

async function call(app: AppProcess, method: 'GET' | 'POST', path: string, body?: unknown) {
  const sep = path.includes('?') ? '&' : '?'
  const res = await fetch(`${app.url}/app-admin${path}${sep}shop=${SHOP}&secret=${SECRET}`, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as unknown }
}

const counts = async () => {
  const { rows } = await env.world.pool.query<{ done: number; status: string; applying: number }>(
    `select j.done, j.status,
       (select count(*)::int from cdp_tag_job_items i where i.job_id = j.id and i.status = 'applying') as applying
     from cdp_tag_jobs j where j.shop_id = $1`,
    [shopId],
  )
  return rows[0]
}

describe.runIf(onPostgres())('segment tag batch across SIGKILLs', () => {
  it('tags every customer of the segment once and counts each once', async () => {
    const { rows } = await env.world.pool.query<{ id: string }>(
      'select id::text from customers where shop_id = $1 order by id',
      [shopId],
    )
    const ids = rows.map((r) => r.id)
    expect(ids.length).toBeGreaterThan(KILL_AT[1]! + 50)
    // Each call takes 40 ms: the batch runs for several seconds, so the kills land mid-way.
    env.world.emulator.faults.set({ latencyMs: 40 })
    let app = await env.start()
    const made = await call(app, 'POST', '/cdp-segment-create', { data: { name: '全員', conditions: {} } })
    expect(made.status).toBe(201)
    const segment = ZSegment.parse(made.body)
    const from = env.world.emulator.callLog.length
    const started = await call(app, 'POST', '/cdp-customer-tag-add/', { segmentId: segment.id, tags: [TAG] })
    expect(started.status).toBe(202)

    let cutOff = 0
    for (const at of KILL_AT) {
      await vi.waitFor(
        async () => {
          if (((await counts())?.done ?? 0) < at) throw new Error('not there yet')
        },
        { timeout: 90_000, interval: 5 },
      )
      await env.kill(app)
      const after = (await counts())!
      expect(after.status).toBe('running')
      cutOff += after.applying
      app = await env.start()
    }
    // Some kills fell between asking the platform and recording the customer.
    expect(cutOff).toBeGreaterThan(0)

    let ended: SegmentData | undefined
    await vi.waitFor(
      async () => {
        ended = ZSegmentData.parse((await call(app, 'GET', `/cdp-segment-data?segmentId=${segment.id}`)).body)
        if (ended.tagJob?.status !== 'done') throw new Error(`still ${ended.tagJob?.status}`)
      },
      { timeout: 120_000, interval: 100 },
    )
    expect(ended!.tagJob).toMatchObject({ total: ids.length, done: ids.length, failed: 0 })

    const asked = new Map<string, number>()
    for (const c of env.world.emulator.callLog.slice(from)) {
      if (!c.rootFields.includes('tagsAdd')) continue
      const id = String(c.variables.id).split('/').pop()!
      asked.set(id, (asked.get(id) ?? 0) + 1)
    }
    const platform = env.world.emulator.store.shop(SHOP)!
    for (const id of ids) {
      expect(asked.get(id), `customer ${id}`).toBe(1)
      expect(platform.customers.find((c) => String(c.id) === id)!.tags, `customer ${id}`).toContain(TAG)
    }
  }, 300_000)
})
