import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
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
  const { segments, customers } = deps

  app.route({
    ...tableRoute('GET /cdp-customer-list', {
      tags,
      summary: 'セグメントの顧客（10件ずつ、hasNext と表示範囲つき）',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) =>
      segments.customers(request.shop, request.query.segmentId, request.query.offset, request.query.count),
  })

  app.route({
    ...tableRoute('POST /cdp-customer-list-export', {
      tags,
      summary: 'セグメントの顧客をCSVにしてメールで送信（ジョブ: 受け付けて202、進捗はcdp-segment-data）',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: async (request, reply) => {
      const exportJob = await startSegmentExport(
        { db: app.db, segments, ...(deps.enqueueExport ? { enqueue: deps.enqueueExport } : {}) },
        request.shop,
        request.body,
      )
      return reply.code(202).send({ exportJob })
    },
  })

  app.route({
    ...tableRoute('GET /cdp-customer-data', {
      tags,
      summary: '顧客詳細（プロフィール・契約・注文・LTV・タグ）',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => customers.data(request.shop, request.query.customerId),
  })

  app.route({
    ...tableRoute('GET /cdp-log-data', {
      tags,
      summary: '顧客のログ（契約・請求・メール・タグ、新しい順）',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => customers.log(request.shop, request.query.customerId),
  })

  app.route({
    ...tableRoute('POST /cdp-customer-tag-add/', {
      tags,
      summary: '顧客にタグを追加（segmentId を指定するとセグメントの全顧客に一括追加）',
      errors: {
        400: ZErrorResponse,
        404: ZErrorResponse,
        409: ZErrorResponse,
        422: ZErrorResponse,
        502: ZErrorResponse,
      },
    }),
    handler: async (request, reply) => {
      const { customerId, segmentId, tags: added } = request.body
      if (segmentId !== undefined) {
        return reply.code(202).send({ tagJob: await deps.batches.start(request.shop, segmentId, added[0]!) })
      }
      return reply.send(await customers.addTags(request.shop, customerId!, added))
    },
  })

  app.route({
    ...tableRoute('POST /cdp-customer-tag-delete/', {
      tags,
      summary: '顧客のタグを削除',
      errors: { 400: ZErrorResponse, 404: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse },
    }),
    handler: (request) => customers.removeTags(request.shop, request.body.customerId, request.body.tags),
  })
}
