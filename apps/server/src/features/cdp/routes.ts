import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { stateChangingGet } from '../../http/get-write-guard.ts'
import { customerRoutes } from './customer-routes.ts'
import { createCustomerService } from './customers-service.ts'
import { ltvRoutes } from './ltv-routes.ts'
import type { EnqueueSegmentExport } from './segment-export.ts'
import { createSegmentService } from './segments-service.ts'
import { createTagBatches, type EnqueueTagJob } from './tag-batch.ts'

/** The pg-boss senders of the tag batch and the export (jobs/cdp-jobs.ts); without them nothing runs them but the sweep. */
export type CdpRouteOptions = { enqueueTagJob?: EnqueueTagJob; enqueueExport?: EnqueueSegmentExport }

/** Customer data platform (spec §7 "Customer data platform"): segments, customers, tags, LTV. */
export function cdpRoutes(app: AppInstance, opts: CdpRouteOptions): void {
  const route = tableRoutes(app, { tags: ['cdp'] })
  const segments = createSegmentService({ db: app.db })
  const customers = createCustomerService({ db: app.db, clients: app.shopClients })
  const batches = createTagBatches({
    db: app.db,
    segments,
    ...(opts.enqueueTagJob ? { enqueue: opts.enqueueTagJob } : {}),
  })

  route('GET /cdp-segment-list', 'セグメントとグループの一覧', {
    handler: (request) => segments.list(request.shop),
  })

  route('GET /cdp-segment-data', 'セグメントの条件・該当する顧客数・タグ一括追加の進捗', {
    errors: [404],
    handler: (request) => segments.data(request.shop, request.query.segmentId),
  })

  route('GET /cdp-segment-setting', '条件に使える流入元（source / medium）と契約数', {
    handler: (request) => segments.setting(request.shop, request.query.source, request.query.medium),
  })

  route('POST /cdp-segment-create', 'セグメントを作成', {
    errors: [400],
    handler: (request) => segments.create(request.shop, request.body.data),
  })

  route('POST /cdp-segment-update', 'セグメントを保存（data.id のセグメント）', {
    errors: [400, 404],
    handler: (request) => segments.update(request.shop, request.body.data.id, request.body.data),
  })

  // The spec's verb is GET, though it deletes: the guard refuses what a GET that writes must not
  // follow (a navigation, a cross-site or prefetch request) and nothing caches the answer.
  route('GET /cdp-segment-delete', 'セグメントを削除（仕様どおりGETですが書き込みとして扱います）', {
    errors: [403, 404],
    ...stateChangingGet('セグメント一覧の削除ボタン'),
    handler: async (request) => {
      await segments.remove(request.shop, request.query.segmentId)
      return { deleted: true as const, segmentId: request.query.segmentId }
    },
  })

  route('POST /cdp-group-list/', 'セグメントのグループ一覧（name を指定するとそのグループを追加）', {
    errors: [400],
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
