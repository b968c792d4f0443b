import type { Db } from '../../db/pool.ts'
import { type HitRow, insertHits } from './repo.ts'

/**
 * Group commit for the pixel's hits: the requests that arrive while a batch is being written are
 * gathered and written in one statement, and each request is answered only after that statement committed, so a 2xx
 * always means stored (a crash after it loses nothing) while the database sees one insert per
 * batch instead of one per hit. Duplicates (the same event id, also within a batch) are
 * dropped by the primary key and reported back as such.
 */
export type IngestQueue = {
  /** Resolves with how many of `hits` were new once they are committed. */
  push(hits: HitRow[]): Promise<{ accepted: number; duplicates: number }>
  /** Writes what is waiting (on close). */
  drain(): Promise<void>
}

type Waiting = {
  hits: HitRow[]
  resolve: (r: { accepted: number; duplicates: number }) => void
  reject: (e: unknown) => void
}

/** Rows of traffic_daily per day and campaign (report_slot() of migration 0018): 0–7. */
const SLOTS = 8

export function createIngestQueue(
  db: Db,
  opts: { maxRows?: number; maxInFlight?: number } = {},
): IngestQueue {
  const maxRows = opts.maxRows ?? 2000
  const maxInFlight = Math.min(opts.maxInFlight ?? 4, SLOTS)
  let waiting: Waiting[] = []
  let scheduled = false
  const running = new Set<Promise<void>>()
  // Each writer writes its counts to its own slot; another process starts elsewhere in the 8.
  const first = Math.floor(Math.random() * SLOTS)
  const freeSlots = Array.from({ length: maxInFlight }, (_, i) => (first + i) % SLOTS)

  async function write(batch: Waiting[], slot: number): Promise<void> {
    try {
      const stored = await insertHits(
        db,
        batch.flatMap((w) => w.hits),
        slot,
      )
      const seen = new Set<string>()
      for (const w of batch) {
        let accepted = 0
        for (const h of w.hits) {
          const key = `${h.shop_id}:${h.event_id}`
          // The first request of a batch that carried an id gets it; a second in the same batch is a duplicate.
          if (stored.has(key) && !seen.has(key)) {
            accepted += 1
            seen.add(key)
          }
        }
        w.resolve({ accepted, duplicates: w.hits.length - accepted })
      }
    } catch (error) {
      for (const w of batch) w.reject(error)
    }
  }

  // No timer: a batch leaves as soon as a writer is free, and whatever arrives while the
  // writers are busy forms the next one, so batches grow with the load and an idle endpoint
  // answers at once.
  function flush(): void {
    scheduled = false
    while (waiting.length > 0 && running.size < maxInFlight) {
      let rows = 0
      let cut = 0
      while (cut < waiting.length && (cut === 0 || rows + waiting[cut]!.hits.length <= maxRows)) {
        rows += waiting[cut]!.hits.length
        cut += 1
      }
      const batch = waiting.slice(0, cut)
      waiting = waiting.slice(cut)
      const slot = freeSlots.pop()!
      const done: Promise<void> = write(batch, slot).finally(() => {
        running.delete(done)
        freeSlots.push(slot)
        flush()
      })
      running.add(done)
    }
  }

  return {
    push(hits) {
      return new Promise((resolve, reject) => {
        waiting.push({ hits, resolve, reject })
        if (!scheduled && running.size < maxInFlight) {
          scheduled = true
          // The requests parsed in this turn of the event loop go together.
          setImmediate(flush)
        }
      })
    },
    async drain() {
      flush()
      while (running.size > 0 || waiting.length > 0) {
        flush()
        await Promise.all([...running])
      }
    },
  }
}
