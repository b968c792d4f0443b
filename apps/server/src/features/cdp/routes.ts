import {
  ZGroupList,
  ZGroupListRequest,
  ZSegment,
  ZSegmentCreateRequest,
  ZSegmentData,
  ZSegmentDeleted,
  ZSegmentIdQuery,
  ZSegmentList,
  ZSegmentSetting,
  ZSegmentSettingQuery,
  ZSegmentUpdateRequest,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
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
  const api = apiRoutes(app, tags)
  const segments = createSegmentService({ db: app.db })
  const customers = createCustomerService({ db: app.db, clients: app.shopClients })
  const batches = createTagBatches({
    db: app.db,
    segments,
    ...(opts.enqueueTagJob ? { enqueue: opts.enqueueTagJob } : {}),
  })

  api.get('/app-admin/cdp-segment-list', 'セグメントとグループの一覧', {
    response: { 200: ZSegmentList },
    handler: (request) => segments.list(request.shop),
  })

  api.get('/app-admin/cdp-segment-data', 'セグメントの条件・該当する顧客数・タグ一括追加の進捗', {
    querystring: ZSegmentIdQuery,
    response: { 200: ZSegmentData, ...errorAnswers(404) },
    handler: (request) => segments.data(request.shop, request.query.segmentId),
  })

  api.get('/app-admin/cdp-segment-setting', '条件に使える流入元（source / medium）と契約数', {
    querystring: ZSegmentSettingQuery,
    response: { 200: ZSegmentSetting },
    handler: (request) => segments.setting(request.shop, request.query.source, request.query.medium),
  })

  api.create('/app-admin/cdp-segment-create', 'セグメントを作成', {
    body: ZSegmentCreateRequest,
    created: ZSegment,
    response: errorAnswers(400),
    handler: (request) => segments.create(request.shop, request.body.data),
  })

  api.post('/app-admin/cdp-segment-update', 'セグメントを保存（data.id のセグメント）', {
    body: ZSegmentUpdateRequest,
    response: { 200: ZSegment, ...errorAnswers(400, 404) },
    handler: (request) => segments.update(request.shop, request.body.data.id, request.body.data),
  })

  // The spec's verb is GET, though it deletes: the guard refuses what a GET that writes must not
  // follow (a navigation, a cross-site or prefetch request) and nothing caches the answer.
  api.get(
    '/app-admin/cdp-segment-delete',
    'セグメントを削除（仕様どおりGETですが書き込みとして扱います）',
    {
      querystring: ZSegmentIdQuery,
      response: { 200: ZSegmentDeleted, ...errorAnswers(403, 404) },
      handler: async (request) => {
        await segments.remove(request.shop, request.query.segmentId)
        return { deleted: true as const, segmentId: request.query.segmentId }
      },
    },
    { ...stateChangingGet('セグメント一覧の削除ボタン') },
  )

  api.post('/app-admin/cdp-group-list/', 'セグメントのグループ一覧（name を指定するとそのグループを追加）', {
    body: ZGroupListRequest,
    response: { 200: ZGroupList, ...errorAnswers(400) },
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
