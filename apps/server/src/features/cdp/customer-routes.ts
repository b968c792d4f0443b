import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import type { CustomerService } from './customers-service.ts'
import { type EnqueueSegmentExport, startSegmentExport } from './segment-export.ts'
import type { SegmentService } from './segments-service.ts'
import type { createTagBatches } from './tag-batch.ts'

type Deps = {
  segments: SegmentService
  customers: CustomerService
  batches: ReturnType<typeof createTagBatches>
  enqueueExport?: EnqueueSegmentExport
}

/** The customers of a segment, a customer's detail and log, and their tags. */
export function customerRoutes(app: AppInstance, deps: Deps): void {
  const route = tableRoutes(app, { tags: ['cdp'], errors: [404] })
  const { segments, customers } = deps

  route('GET /cdp-customer-list', 'セグメントの顧客（10件ずつ、hasNext と表示範囲つき）', {
    handler: (request) =>
      segments.customers(request.shop, request.query.segmentId, request.query.offset, request.query.count),
  })

  route(
    'POST /cdp-customer-list-export',
    'セグメントの顧客をCSVにしてメールで送信（ジョブ: 受け付けて202、進捗はcdp-segment-data）',
    {
      errors: [400, 404],
      handler: async (request) => {
        const exportJob = await startSegmentExport(
          { db: app.db, segments, ...(deps.enqueueExport ? { enqueue: deps.enqueueExport } : {}) },
          request.shop,
          request.body,
        )
        return { exportJob }
      },
    },
  )

  route('GET /cdp-customer-data', '顧客詳細（プロフィール・契約・注文・LTV・タグ）', {
    handler: (request) => customers.data(request.shop, request.query.customerId),
  })

  route('GET /cdp-log-data', '顧客のログ（契約・請求・メール・タグ、新しい順）', {
    handler: (request) => customers.log(request.shop, request.query.customerId),
  })

  route(
    'POST /cdp-customer-tag-add/',
    '顧客にタグを追加（segmentId を指定するとセグメントの全顧客に一括追加）',
    {
      errors: [400, 404, 409, 422, 502],
      handler: async (request, reply) => {
        const { customerId, segmentId, tags: added } = request.body
        if (segmentId !== undefined) {
          const tagJob = await deps.batches.start(request.shop, segmentId, added[0]!)
          return reply.code(202).send({ tagJob })
        }
        return reply.send(await customers.addTags(request.shop, customerId!, added))
      },
    },
  )

  route('POST /cdp-customer-tag-delete/', '顧客のタグを削除', {
    errors: [400, 404, 422, 502],
    handler: (request) => customers.removeTags(request.shop, request.body.customerId, request.body.tags),
  })
}
