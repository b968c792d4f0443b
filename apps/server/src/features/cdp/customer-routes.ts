import {
  ZCustomerData,
  ZCustomerIdQuery,
  ZCustomerList,
  ZCustomerListExport,
  ZCustomerListExportRequest,
  ZCustomerListQuery,
  ZCustomerLog,
  ZCustomerTags,
  ZTagAddRequest,
  ZTagDeleteRequest,
  ZTagJobAccepted,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import type { CustomerService } from './customers-service.ts'
import { type EnqueueSegmentExport, startSegmentExport } from './segment-export.ts'
import type { SegmentService } from './segments-service.ts'
import type { createTagBatches } from './tag-batch.ts'

const tags = ['cdp']

type Deps = {
  segments: SegmentService
  customers: CustomerService
  batches: ReturnType<typeof createTagBatches>
  enqueueExport?: EnqueueSegmentExport
}

/** The customers of a segment, a customer's detail and log, and their tags. */
export function customerRoutes(app: AppInstance, deps: Deps): void {
  const api = apiRoutes(app, tags)
  const { segments, customers } = deps

  api.get('/app-admin/cdp-customer-list', 'セグメントの顧客（10件ずつ、hasNext と表示範囲つき）', {
    querystring: ZCustomerListQuery,
    response: { 200: ZCustomerList, ...errorAnswers(404) },
    handler: (request) =>
      segments.customers(request.shop, request.query.segmentId, request.query.offset, request.query.count),
  })

  api.post(
    '/app-admin/cdp-customer-list-export',
    'セグメントの顧客をCSVにしてメールで送信（ジョブ: 受け付けて202、進捗はcdp-segment-data）',
    {
      body: ZCustomerListExportRequest,
      response: { 202: ZCustomerListExport, ...errorAnswers(400, 404) },
      handler: async (request, reply) => {
        const exportJob = await startSegmentExport(
          { db: app.db, segments, ...(deps.enqueueExport ? { enqueue: deps.enqueueExport } : {}) },
          request.shop,
          request.body,
        )
        return reply.code(202).send({ exportJob })
      },
    },
  )

  api.get('/app-admin/cdp-customer-data', '顧客詳細（プロフィール・契約・注文・LTV・タグ）', {
    querystring: ZCustomerIdQuery,
    response: { 200: ZCustomerData, ...errorAnswers(404) },
    handler: (request) => customers.data(request.shop, request.query.customerId),
  })

  api.get('/app-admin/cdp-log-data', '顧客のログ（契約・請求・メール・タグ、新しい順）', {
    querystring: ZCustomerIdQuery,
    response: { 200: ZCustomerLog, ...errorAnswers(404) },
    handler: (request) => customers.log(request.shop, request.query.customerId),
  })

  api.post(
    '/app-admin/cdp-customer-tag-add/',
    '顧客にタグを追加（segmentId を指定するとセグメントの全顧客に一括追加）',
    {
      body: ZTagAddRequest,
      response: { 200: ZCustomerTags, 202: ZTagJobAccepted, ...errorAnswers(400, 404, 409, 422, 502) },
      handler: async (request, reply) => {
        const { customerId, segmentId, tags: added } = request.body
        if (segmentId !== undefined) {
          return reply
            .code(202)
            .send({ tagJob: await deps.batches.start(request.shop, segmentId, added[0]!) })
        }
        return reply.send(await customers.addTags(request.shop, customerId!, added))
      },
    },
  )

  api.post('/app-admin/cdp-customer-tag-delete/', '顧客のタグを削除', {
    body: ZTagDeleteRequest,
    response: { 200: ZCustomerTags, ...errorAnswers(400, 404, 422, 502) },
    handler: (request) => customers.removeTags(request.shop, request.body.customerId, request.body.tags),
  })
}
