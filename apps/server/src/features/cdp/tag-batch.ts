import type { TagJob } from '@teiki/contract'
import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import { outsideRequest } from '../../http/request-context.ts'
import type { ShopRow } from '../shops/repo.ts'
import type { CustomerService } from './customers-service.ts'
import { segmentCount, segmentCustomersAfter } from './segments-repo.ts'
import { type SegmentService, whereOf } from './segments-service.ts'
import {
  activeTagJob,
  addTagJobProgress,
  finishTagJob,
  insertTagJob,
  startTagJob,
  type TagJobRow,
  toApiTagJob,
} from './tag-jobs-repo.ts'

const BATCH = 50
const RUNNING = 'このセグメントにはタグの一括追加を実行中です。完了してからもう一度お試しください。'
const FAILED = 'タグの一括追加を中断しました。もう一度実行すると、残りの顧客に追加します。'

type Log = { error(obj: object, msg: string): void }

/**
 * A tag for every customer of a segment, as a background batch with its progress in
 * `cdp_tag_jobs`: the customers are walked in id order, 50 at a time, each tagged through the
 * platform like a single tag add (the Admin client paces the mutations to the shop's budget). A
 * customer the platform refuses counts as failed and the batch goes on. The segment is read as
 * it is when the batch starts. Adding a tag twice changes nothing, so running it again after a
 * failure is safe.
 */
export function createTagBatches(deps: {
  db: Db
  segments: SegmentService
  customers: CustomerService
  log?: Log
}) {
  const { db } = deps
  const running = new Set<Promise<void>>()

  async function run(shop: ShopRow, job: TagJobRow): Promise<void> {
    const segment = await deps.segments.stored(shop, job.segment_id)
    const where = whereOf(shop, segment.conditions)
    await startTagJob(db, job.id, await segmentCount(db, shop.id, where))
    let after: string | null = null
    for (;;) {
      const batch = await segmentCustomersAfter(db, shop.id, where, after, BATCH)
      let done = 0
      let failed = 0
      for (const customer of batch) {
        try {
          await deps.customers.addTags(shop, customer.id, [job.tag], 'segment')
          done += 1
        } catch (error) {
          if (!(error instanceof AppError) || error.status >= 500) throw error
          failed += 1
        }
      }
      await addTagJobProgress(db, job.id, done, failed)
      if (batch.length < BATCH) break
      after = batch[batch.length - 1]!.id
    }
    await finishTagJob(db, job.id, null)
  }

  return {
    async start(shop: ShopRow, segmentId: string, tag: string): Promise<TagJob> {
      await deps.segments.stored(shop, segmentId)
      const job = await withTransaction(db, async (tx) => {
        // One batch per segment at a time: the row lock makes a second start wait, then see the first.
        await tx.query('select 1 from cdp_segments where shop_id = $1 and id = $2 for update', [
          shop.id,
          segmentId,
        ])
        if (await activeTagJob(tx, shop.id, segmentId)) throw new AppError('CONFLICT', RUNNING)
        return insertTagJob(tx, shop.id, segmentId, tag)
      })
      // Background work: the merchant's request ends now, its lane and deadline must not bind the batch.
      const task = outsideRequest(() => run(shop, job)).catch(async (error) => {
        deps.log?.error({ err: error, tagJob: job.id }, 'tag batch failed')
        await finishTagJob(db, job.id, FAILED).catch(() => {})
      })
      running.add(task)
      void task.finally(() => running.delete(task))
      return toApiTagJob(job)
    },
    /** Waits for the batches this process runs (the app waits on close). */
    async idle(): Promise<void> {
      await Promise.all([...running])
    },
  }
}
