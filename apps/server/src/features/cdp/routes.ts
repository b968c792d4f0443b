import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { customerRoutes } from './customer-routes.ts'
import { createCustomerService } from './customers-service.ts'
import { ltvRoutes } from './ltv-routes.ts'
import type { EnqueueSegmentExport } from './segment-export.ts'
import { createSegmentService } from './segments-service.ts'
import { createTagBatches, type EnqueueTagJob } from './tag-batch.ts'

const tags = ['cdp']

/** The pg-boss senders of the tag batch and the export (jobs/cdp-jobs.ts); without them nothing runs them but the sweep. */
export type CdpRouteOptions = { enqueueTagJob?: EnqueueTagJob; enqueueExport?: EnqueueSegmentExport }

/** Customer data platform (spec §7 "Customer data platform"): segments, customers, tags, LTV. */
export function cdpRoutes(app: AppInstance, opts: CdpRouteOptions): void {
  const segments = createSegmentService({ db: app.db })
  const customers = createCustomerService({ db: app.db, clients: app.shopClients })
  const batches = createTagBatches({
    db: app.db,
    segments,
    ...(opts.enqueueTagJob ? { enqueue: opts.enqueueTagJob } : {}),
  })

  app.route({
    ...tableRoute('GET /cdp-segment-list', { tags, summary: 'セグメントとグループの一覧' }),
    handler: (request) => segments.list(request.shop),
  })

  app.route({
    ...tableRoute('GET /cdp-segment-data', {
      tags,
      summary: 'セグメントの条件・該当する顧客数・タグ一括追加の進捗',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => segments.data(request.shop, request.query.segmentId),
  })

  app.route({
    ...tableRoute('GET /cdp-segment-setting', {
      tags,
      summary: '条件に使える流入元（source / medium）と契約数',
    }),
    handler: (request) => segments.setting(request.shop, request.query.source, request.query.medium),
  })

  app.route({
    ...tableRoute('POST /cdp-segment-create', {
      tags,
      summary: 'セグメントを作成',
      errors: { 400: ZErrorResponse },
    }),
    handler: async (request, reply) =>
      reply.code(201).send(await segments.create(request.shop, request.body.data)),
  })

  app.route({
    ...tableRoute('POST /cdp-segment-update', {
      tags,
      summary: 'セグメントを保存（data.id のセグメント）',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: (request) => segments.update(request.shop, request.body.data.id, request.body.data),
  })

  // The spec's verb is GET, though it deletes: the guard refuses what a GET that writes must not
  // follow (a navigation, a cross-site or prefetch request) and nothing caches the answer.
  app.route({
    ...tableRoute('GET /cdp-segment-delete', {
      tags,
      summary: 'セグメントを削除（仕様どおりGETですが書き込みとして扱います）',
      errors: { 403: ZErrorResponse, 404: ZErrorResponse },
    }),
    ...stateChangingGet('セグメント一覧の削除ボタン'),
    handler: async (request) => {
      await segments.remove(request.shop, request.query.segmentId)
      return { deleted: true as const, segmentId: request.query.segmentId }
    },
  })

  app.route({
    ...tableRoute('POST /cdp-group-list/', {
      tags,
      summary: 'セグメントのグループ一覧（name を指定するとそのグループを追加）',
      errors: { 400: ZErrorResponse },
    }),
    handler: (request) => segments.groups(request.shop, request.body.name),
  })

  customerRoutes(app, {
    segments,
    customers,
    batches,
    ...(opts.enqueueExport ? { enqueueExport: opts.enqueueExport } : {}),
  })
  ltvRoutes(app)
}
