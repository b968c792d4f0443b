import type { Db } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { eachLimited } from '../../runs/each-limited.ts'
import { runTracked, type TrackedRun } from '../../runs/tracked-run.ts'
import type { CustomerService } from './customers-service.ts'
import { findSegment } from './segments-repo.ts'
import { whereOf } from './segments-service.ts'
import type { TagJobRow } from './tag-jobs-repo.ts'
import {
  finishTagJob,
  markApplying,
  pendingCustomers,
  recordCustomer,
  snapshotTagJob,
  tagJobRows,
} from './tag-run-repo.ts'

export type TagRunDeps = {
  db: Db
  customers: CustomerService
  log?: { error(obj: unknown, msg?: string): void }
  /** Customers tagged at once (one tagsAdd each; the shop's client paces them to its budget). */
  concurrency?: number
}

const DEFAULT_CONCURRENCY = 4
// Refusals of one customer: recorded on its row with the Japanese reason, the batch goes on.
const PER_CUSTOMER = new Set(['PLATFORM_USER_ERROR', 'CONFLICT', 'NOT_FOUND', 'INVALID_INPUT'])
const SEGMENT_GONE = 'セグメントが削除されたため、タグの一括追加を行いませんでした。'

/**
 * Runs a tag batch to its end, once, resuming where a dead worker left it (the batch feature's
 * design, features/batch/run.ts): the job is claimed as a tracked run (runs/tracked-run.ts:
 * queued, or running under a process that is gone or silent for 2 minutes); the first claim snapshots the segment's customers as the
 * conditions recorded at the request select them now (ADR 0025); the undecided customers are
 * taken in id order, `concurrency` at a time, each tagged through the customers service (tagsAdd,
 * mirror, log), and recorded once with the job's counts. A customer a dead worker had asked for
 * is read from the platform first and only tagged if the tag is missing. Platform trouble beyond
 * the client's retries hands the job back (queued) and throws, so pg-boss retries it later.
 */
export async function runTagJob(deps: TagRunDeps, shop: ShopRow, jobId: string): Promise<TagJobRow | null> {
  const spec = { db: deps.db, rows: tagJobRows, shopId: shop.id, id: jobId }
  return (await runTracked(spec, (run) => tagCustomers(deps, shop, run)))?.value ?? null
}

/** The claimed job: its snapshot (first claim), then every undecided customer, recorded once. */
async function tagCustomers(deps: TagRunDeps, shop: ShopRow, run: TrackedRun<TagJobRow>) {
  const { db } = deps
  const job = run.row
  if (job.total === null) {
    const conditions = job.conditions ?? (await findSegment(db, shop.id, job.segment_id))?.conditions
    if (!conditions) return finishTagJob(db, job.id, 'failed', SEGMENT_GONE)
    await snapshotTagJob(db, shop.id, job.id, whereOf(shop, conditions))
  }
  const width = deps.concurrency ?? DEFAULT_CONCURRENCY
  for (let after = '0'; ; ) {
    const page = await pendingCustomers(db, job.id, after, width * 8)
    if (page.length === 0) break
    await eachLimited(page, width, async (item) => {
      // Taken over by another worker (this one was silent too long): the rest is its to tag.
      run.signal.throwIfAborted()
      try {
        await deps.customers.addTags(shop, item.customer_id, [job.tag], 'segment', {
          attempted: item.attempted,
          beforeAsk: () => markApplying(db, job.id, item.customer_id),
        })
        await recordCustomer(db, job.id, item.customer_id, 'done', null)
      } catch (error) {
        if (!(error instanceof AppError) || !PER_CUSTOMER.has(error.code)) throw error
        await recordCustomer(db, job.id, item.customer_id, 'failed', error.message)
      }
    })
    after = page[page.length - 1]!.customer_id
  }
  return finishTagJob(db, job.id, 'done', null)
}
