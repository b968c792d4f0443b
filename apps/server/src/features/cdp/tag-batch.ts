import type { TagJob } from '@teiki/contract'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import type { SegmentService } from './segments-service.ts'
import { activeTagJob, insertTagJob, toApiTagJob } from './tag-jobs-repo.ts'

const RUNNING = 'このセグメントにはタグの一括追加を実行中です。完了してからもう一度お試しください。'

/** Sends the job's pg-boss run in the transaction that records it (jobs/cdp-jobs.ts). */
export type EnqueueTagJob = (tx: DbClient, data: { shopId: string; jobId: string }) => Promise<void>

/**
 * A tag for every customer of a segment, as a job (issue 15): the start records the batch with
 * the segment's conditions as they are now, and its pg-boss run in the same transaction, and
 * answers at once; any process's worker runs it (tag-run.ts) and the screen reads its progress
 * from the segment's data. One batch per segment at a time (409).
 */
export function createTagBatches(deps: { db: Db; segments: SegmentService; enqueue?: EnqueueTagJob }) {
  const { db } = deps
  return {
    async start(shop: ShopRow, segmentId: string, tag: string): Promise<TagJob> {
      const segment = await deps.segments.stored(shop, segmentId)
      const job = await withTransaction(db, async (tx) => {
        // The segment's row lock makes a second start wait, then see the first.
        await tx.query('select 1 from cdp_segments where shop_id = $1 and id = $2 for update', [
          shop.id,
          segmentId,
        ])
        if (await activeTagJob(tx, shop.id, segmentId)) throw new AppError('CONFLICT', RUNNING)
        const job = await insertTagJob(tx, shop.id, segmentId, tag, segment.conditions)
        await deps.enqueue?.(tx, { shopId: shop.id, jobId: job.id })
        return job
      })
      return toApiTagJob(job)
    },
  }
}
