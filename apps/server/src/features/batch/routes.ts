import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import type { Mailer } from '../../mail/mailer.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { batchDeps } from './deps.ts'
import {
  type BatchPlan,
  type EnqueueBatch,
  planNextBillingDate,
  planProductDelete,
  planProductUpdate,
  preview,
  startBatch,
  toApiBatch,
} from './service.ts'
import { batchItems, bulkQuery, cancelBatch, getBatch, listBatches } from './status-service.ts'

export type BatchRoutesOptions = {
  /** Puts a started batch on the job queue (jobs/batch-jobs.ts); without it the batch stays queued. */
  enqueue?: EnqueueBatch
  mailer?: Mailer
  now?: () => Date
}

/**
 * Batch updates (一括更新, spec §7 "Batch and misc", issue 17): the three POSTs start a batch
 * (202 with the job), their `/preview` answers what it would touch, `/batch-updates/:id` is
 * the job status, `…/items` the report, `…/cancel` stops it; `/bulk-query` answers the shop's
 * bulk operation on the platform.
 */
export function batchRoutes(app: AppInstance, opts: BatchRoutesOptions): void {
  const route = tableRoutes(app, { tags: ['batch'], errors: [400, 404, 409] })
  const deps = batchDeps(app, opts.mailer)
  const { clients } = deps
  const now = opts.now ?? (() => new Date())
  /** A planned batch recorded with its job (the three POSTs differ only in how they plan it). */
  const start = async (shop: ShopRow, plan: BatchPlan, notifyEmail: string | undefined) =>
    toApiBatch(await startBatch(app.db, shop, plan, notifyEmail ?? null, opts.enqueue))
  route('POST /batch-product-update', '商品（バリエーション）の一括入れ替えを開始', {
    handler: async (request) => {
      const plan = await planProductUpdate(app.db, request.shop, request.body)
      return await start(request.shop, plan, request.body.notifyEmail)
    },
  })
  route('POST /batch-product-delete', '商品（バリエーション）の一括削除を開始', {
    handler: async (request) => {
      const plan = await planProductDelete(app.db, request.shop, request.body)
      return await start(request.shop, plan, request.body.notifyEmail)
    },
  })
  route(
    'POST /batch-next-billing-date-update',
    '次回請求日の一括変更を開始（変更前の日の契約を変更後の日へ）',
    {
      handler: async (request) => {
        const plan = planNextBillingDate(request.shop, request.body, now())
        return await start(request.shop, plan, request.body.notifyEmail)
      },
    },
  )

  route('GET /batch-product-update/preview', '一括入れ替えの対象（件数と契約、ページごと）', {
    errors: [400, 404],
    handler: async (request) => {
      const { offset, limit, ...input } = request.query
      return preview(app.db, request.shop, await planProductUpdate(app.db, request.shop, input), {
        offset,
        limit,
      })
    },
  })
  route('GET /batch-product-delete/preview', '一括削除の対象（件数と契約、ページごと）', {
    errors: [400, 404],
    handler: async (request) => {
      const { offset, limit, ...input } = request.query
      return preview(app.db, request.shop, await planProductDelete(app.db, request.shop, input), {
        offset,
        limit,
      })
    },
  })
  route(
    'GET /batch-next-billing-date-update/preview',
    '次回請求日の一括変更の対象（件数と契約、ページごと）',
    {
      errors: [400, 404],
      handler: async (request) => {
        const { offset, limit, ...input } = request.query
        return preview(app.db, request.shop, planNextBillingDate(request.shop, input, now()), {
          offset,
          limit,
        })
      },
    },
  )

  route('GET /batch-updates', '最近の一括更新（新しい順に10件）', {
    errors: [],
    handler: async (request) => ({ batches: (await listBatches(app.db, request.shop)).map(toApiBatch) }),
  })
  route('GET /batch-updates/:id', '一括更新の状態（status, updatedAt, executedAt と件数）', {
    errors: [404],
    handler: async (request) => toApiBatch(await getBatch(app.db, request.shop, request.params.id)),
  })
  route('GET /batch-updates/:id/items', '一括更新の結果（契約ごと、ページごと）', {
    errors: [404],
    handler: (request) => batchItems(app.db, request.shop, request.params.id, request.query),
  })
  route('POST /batch-updates/:id/cancel', '一括更新を中止（変更済みの契約はそのまま）', {
    errors: [404, 409],
    handler: async (request) => toApiBatch(await cancelBatch(deps, request.shop, request.params.id)),
  })
  route('GET /bulk-query', 'ストアの一括処理（バルクオペレーション）の状態', {
    errors: [502],
    handler: (request) => bulkQuery(clients, request.shop),
  })
}
