import {
  ZCustomerData,
  ZCustomerIdQuery,
  ZCustomerList,
  ZCustomerListExport,
  ZCustomerListExportRequest,
  ZCustomerListQuery,
  ZCustomerLog,
  ZCustomerTags,
  ZErrorResponse,
  ZTagAddRequest,
  ZTagDeleteRequest,
  ZTagJobAccepted,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
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

  app.get(
    '/app-admin/cdp-customer-list',
    {
      schema: {
        tags,
        summary: 'セグメントの顧客（10件ずつ、hasNext と表示範囲つき）',
        querystring: ZCustomerListQuery,
        response: { 200: ZCustomerList, 404: ZErrorResponse },
      },
    },
    (request) =>
      segments.customers(request.shop, request.query.segmentId, request.query.offset, request.query.count),
  )

  app.post(
    '/app-admin/cdp-customer-list-export',
    {
      schema: {
        tags,
        summary: 'セグメントの顧客をCSVにしてメールで送信（ジョブ: 受け付けて202、進捗はcdp-segment-data）',
        body: ZCustomerListExportRequest,
        response: { 202: ZCustomerListExport, 400: ZErrorResponse, 404: ZErrorResponse },
      },
    },
    async (request, reply) => {
      const exportJob = await startSegmentExport(
        { db: app.db, segments, ...(deps.enqueueExport ? { enqueue: deps.enqueueExport } : {}) },
        request.shop,
        request.body,
      )
      return reply.code(202).send({ exportJob })
    },
  )

  app.get(
    '/app-admin/cdp-customer-data',
    {
      schema: {
        tags,
        summary: '顧客詳細（プロフィール・契約・注文・LTV・タグ）',
        querystring: ZCustomerIdQuery,
        response: { 200: ZCustomerData, 404: ZErrorResponse },
      },
    },
    (request) => customers.data(request.shop, request.query.customerId),
  )

  app.get(
    '/app-admin/cdp-log-data',
    {
      schema: {
        tags,
        summary: '顧客のログ（契約・請求・メール・タグ、新しい順）',
        querystring: ZCustomerIdQuery,
        response: { 200: ZCustomerLog, 404: ZErrorResponse },
      },
    },
    (request) => customers.log(request.shop, request.query.customerId),
  )

  app.post(
    '/app-admin/cdp-customer-tag-add/',
    {
      schema: {
        tags,
        summary: '顧客にタグを追加（segmentId を指定するとセグメントの全顧客に一括追加）',
        body: ZTagAddRequest,
        response: {
          200: ZCustomerTags,
          202: ZTagJobAccepted,
          400: ZErrorResponse,
          404: ZErrorResponse,
          409: ZErrorResponse,
          422: ZErrorResponse,
          502: ZErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { customerId, segmentId, tags: added } = request.body
      if (segmentId !== undefined) {
        return reply.code(202).send({ tagJob: await deps.batches.start(request.shop, segmentId, added[0]!) })
      }
      return reply.send(await customers.addTags(request.shop, customerId!, added))
    },
  )

  app.post(
    '/app-admin/cdp-customer-tag-delete/',
    {
      schema: {
        tags,
        summary: '顧客のタグを削除',
        body: ZTagDeleteRequest,
        response: {
          200: ZCustomerTags,
          400: ZErrorResponse,
          404: ZErrorResponse,
          422: ZErrorResponse,
          502: ZErrorResponse,
        },
      },
    },
    (request) => customers.removeTags(request.shop, request.body.customerId, request.body.tags),
  )
}
