import type pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createIngestQueue } from '../src/features/traffic/ingest-queue.ts'
import type { HitRow } from '../src/features/traffic/repo.ts'

// The pixel's group commit (features/traffic/ingest-queue.ts) against a database whose
// statements finish when the test says: a push is answered only once its batch's statement
// returned, batches in flight at once write to different traffic_daily slots, and what arrives
// while the writers are busy leaves together in the next batch.

type Call = { hits: HitRow[]; slot: number; finish: () => void; fail: (e: Error) => void }

function heldDatabase() {
  const calls: Call[] = []
  const db = {
    query(config: { values: [string, number] }) {
      const hits = JSON.parse(config.values[0]) as HitRow[]
      return new Promise((resolve, reject) => {
        calls.push({
          hits,
          slot: config.values[1],
          finish: () => resolve({ rows: hits.map((h) => ({ key: `${h.shop_id}:${h.event_id}` })) }),
          fail: reject,
        })
      })
    },
  }
  return { db: db as unknown as pg.Pool, calls }
}

const hit = (id: string): HitRow => ({
  shop_id: '1',
  event_id: id,
  kind: 'page_viewed',
  client_id: 'c',
  source: '',
  medium: '',
  campaign: '',
  content: '',
  order_id: null,
})
const tick = () => new Promise((r) => setImmediate(r))

describe('the ingest queue', () => {
  it('answers a push only after its statement returned', async () => {
    const { db, calls } = heldDatabase()
    const queue = createIngestQueue(db)
    let answered: unknown = null
    void queue.push([hit('a'), hit('a')]).then((r) => {
      answered = r
    })
    await tick()
    expect(calls).toHaveLength(1)
    await tick()
    expect(answered).toBeNull()
    calls[0]!.finish()
    await tick()
    expect(answered).toEqual({ accepted: 1, duplicates: 1 })
  })

  it('gives each batch in flight its own slot, and gathers what waits into the next batch', async () => {
    const { db, calls } = heldDatabase()
    const queue = createIngestQueue(db, { maxInFlight: 4 })
    const answers: Array<Promise<unknown>> = []
    for (let round = 0; round < 4; round++) {
      answers.push(queue.push([hit(`r${round}`)]))
      await tick()
    }
    expect(calls).toHaveLength(4)
    expect(new Set(calls.map((c) => c.slot)).size).toBe(4)
    for (const c of calls) expect(c.slot).toBeGreaterThanOrEqual(0)
    for (const c of calls) expect(c.slot).toBeLessThan(8)
    // All writers busy: these wait, then leave as one batch in the slot freed first.
    for (let i = 0; i < 5; i++) answers.push(queue.push([hit(`w${i}`)]))
    await tick()
    expect(calls).toHaveLength(4)
    calls[2]!.finish()
    await tick()
    await tick()
    expect(calls).toHaveLength(5)
    expect(calls[4]!.hits.map((h) => h.event_id)).toEqual(['w0', 'w1', 'w2', 'w3', 'w4'])
    expect(calls[4]!.slot).toBe(calls[2]!.slot)
    expect(calls.slice(0, 4).filter((c) => c.slot === calls[4]!.slot)).toHaveLength(1)
    for (const c of calls) c.finish()
    expect(await Promise.all(answers)).toEqual(Array(9).fill({ accepted: 1, duplicates: 0 }))
  })

  it('fails every push of a batch whose statement failed (no 2xx for unstored hits)', async () => {
    const { db, calls } = heldDatabase()
    const queue = createIngestQueue(db)
    const first = queue.push([hit('x')])
    const second = queue.push([hit('y')])
    await tick()
    calls[0]!.fail(new Error('connection lost'))
    await expect(first).rejects.toThrow('connection lost')
    await expect(second).rejects.toThrow('connection lost')
  })
})
