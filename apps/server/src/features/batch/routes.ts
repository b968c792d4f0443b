import {
  ZBatchIdParam,
  ZBatchItems,
  ZBatchItemsQuery,
  ZBatchJob,
  ZBatchJobList,
  ZBatchNextBillingDatePreviewQuery,
  ZBatchNextBillingDateUpdateRequest,
  ZBatchPreview,
  ZBatchProductDeletePreviewQuery,
  ZBatchProductDeleteRequest,
  ZBatchProductUpdatePreviewQuery,
  ZBatchProductUpdateRequest,
  ZBulkQueryResponse,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
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

const started = { 202: ZBatchJob, ...errorAnswers(400, 404, 409) }
const previewed = { 200: ZBatchPreview, ...errorAnswers(400, 404) }

/**
 * Batch updates (一括更新, spec §7 "Batch and misc", issue 17): the three POSTs start a batch
 * (202 with the job), their `/preview` answers what it would touch, `/batch-updates/:id` is
 * the job status, `…/items` the report, `…/cancel` stops it; `/bulk-query` answers the shop's
 * bulk operation on the platform.
 */
export function batchRoutes(app: AppInstance, opts: BatchRoutesOptions): void {
  const api = apiRoutes(app, ['batch'])
  const deps = batchDeps(app, opts.mailer)
  const { clients } = deps
  const now = opts.now ?? (() => new Date())
  /** A planned batch recorded with its job (the three POSTs differ only in how they plan it). */
  const start = async (shop: ShopRow, plan: BatchPlan, notifyEmail: string | undefined) =>
    toApiBatch(await startBatch(app.db, shop, plan, notifyEmail ?? null, opts.enqueue))
  api.post('/app-admin/batch-product-update', '商品（バリエーション）の一括入れ替えを開始', {
    body: ZBatchProductUpdateRequest,
    response: started,
    handler: async (request, reply) => {
      const plan = await planProductUpdate(app.db, request.shop, request.body)
      return reply.status(202).send(await start(request.shop, plan, request.body.notifyEmail))
    },
  })
  api.post('/app-admin/batch-product-delete', '商品（バリエーション）の一括削除を開始', {
    body: ZBatchProductDeleteRequest,
    response: started,
    handler: async (request, reply) => {
      const plan = await planProductDelete(app.db, request.shop, request.body)
      return reply.status(202).send(await start(request.shop, plan, request.body.notifyEmail))
    },
  })
  api.post(
    '/app-admin/batch-next-billing-date-update',
    '次回請求日の一括変更を開始（変更前の日の契約を変更後の日へ）',
    {
      body: ZBatchNextBillingDateUpdateRequest,
      response: started,
      handler: async (request, reply) => {
        const plan = planNextBillingDate(request.shop, request.body, now())
        return reply.status(202).send(await start(request.shop, plan, request.body.notifyEmail))
      },
    },
  )

  api.get('/app-admin/batch-product-update/preview', '一括入れ替えの対象（件数と契約、ページごと）', {
    querystring: ZBatchProductUpdatePreviewQuery,
    response: previewed,
    handler: async (request) => {
      const { offset, limit, ...input } = request.query
      return preview(app.db, request.shop, await planProductUpdate(app.db, request.shop, input), {
        offset,
        limit,
      })
    },
  })
  api.get('/app-admin/batch-product-delete/preview', '一括削除の対象（件数と契約、ページごと）', {
    querystring: ZBatchProductDeletePreviewQuery,
    response: previewed,
    handler: async (request) => {
      const { offset, limit, ...input } = request.query
      return preview(app.db, request.shop, await planProductDelete(app.db, request.shop, input), {
        offset,
        limit,
      })
    },
  })
  api.get(
    '/app-admin/batch-next-billing-date-update/preview',
    '次回請求日の一括変更の対象（件数と契約、ページごと）',
    {
      querystring: ZBatchNextBillingDatePreviewQuery,
      response: previewed,
      handler: async (request) => {
        const { offset, limit, ...input } = request.query
        return preview(app.db, request.shop, planNextBillingDate(request.shop, input, now()), {
          offset,
          limit,
        })
      },
    },
  )

  api.get('/app-admin/batch-updates', '最近の一括更新（新しい順に10件）', {
    response: { 200: ZBatchJobList },
    handler: async (request) => ({ batches: (await listBatches(app.db, request.shop)).map(toApiBatch) }),
  })
  api.get('/app-admin/batch-updates/:id', '一括更新の状態（status, updatedAt, executedAt と件数）', {
    params: ZBatchIdParam,
    response: { 200: ZBatchJob, ...errorAnswers(404) },
    handler: async (request) => toApiBatch(await getBatch(app.db, request.shop, request.params.id)),
  })
  api.get('/app-admin/batch-updates/:id/items', '一括更新の結果（契約ごと、ページごと）', {
    params: ZBatchIdParam,
    querystring: ZBatchItemsQuery,
    response: { 200: ZBatchItems, ...errorAnswers(404) },
    handler: (request) => batchItems(app.db, request.shop, request.params.id, request.query),
  })
  api.post('/app-admin/batch-updates/:id/cancel', '一括更新を中止（変更済みの契約はそのまま）', {
    params: ZBatchIdParam,
    response: { 200: ZBatchJob, ...errorAnswers(404, 409) },
    handler: async (request) => toApiBatch(await cancelBatch(deps, request.shop, request.params.id)),
  })
  api.get('/app-admin/bulk-query', 'ストアの一括処理（バルクオペレーション）の状態', {
    response: { 200: ZBulkQueryResponse, ...errorAnswers(502) },
    handler: (request) => bulkQuery(clients, request.shop),
  })
}
