import { createReadStream } from 'node:fs'
import { ZExportIdParam, ZExportJob, ZExportJobList, ZExportRequest } from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import {
  createExportJob,
  type EnqueueExport,
  EXPORT_PATH,
  exportFile,
  getExportJob,
  listExportJobs,
  toApiJob,
} from './service.ts'

/** `enqueue`: puts the export on the job queue (jobs/export-jobs.ts); without it the job stays queued. */
export type ExportRoutesOptions = { enqueue?: EnqueueExport }

/**
 * POST /app-admin/export-subscription-contracts (spec §7) and the job's progress and file.
 * The POST answers 202 with the queued job; a worker of the job queue (any process) runs it.
 */
export function exportRoutes(app: AppInstance, opts: ExportRoutesOptions): void {
  const api = apiRoutes(app, ['exports'])
  api.post(EXPORT_PATH, '契約をCSVでエクスポート（絞り込み条件・文字コード・送信先メール）', {
    body: ZExportRequest,
    response: { 202: ZExportJob, ...errorAnswers(400) },
    handler: async (request, reply) => {
      const job = await createExportJob(app.db, request.shop, request.body, opts.enqueue)
      return reply.status(202).send(toApiJob(job, request.shop.iana_timezone))
    },
  })

  api.get(EXPORT_PATH, '最近のエクスポート（新しい順に10件）', {
    response: { 200: ZExportJobList },
    handler: async (request) => ({
      exports: (await listExportJobs(app.db, request.shop)).map((job) =>
        toApiJob(job, request.shop.iana_timezone),
      ),
    }),
  })

  api.get(`${EXPORT_PATH}/:id`, 'エクスポートの進捗', {
    params: ZExportIdParam,
    response: { 200: ZExportJob, ...errorAnswers(404) },
    handler: async (request) =>
      toApiJob(await getExportJob(app.db, request.shop, request.params.id), request.shop.iana_timezone),
  })

  api.get(`${EXPORT_PATH}/:id/download`, 'エクスポートしたCSVをダウンロード', {
    params: ZExportIdParam,
    response: {
      200: z.any().describe('the CSV file (text/csv; charset=utf-8 with BOM, or Shift_JIS)'),
      ...errorAnswers(404, 409),
    },
    handler: async (request, reply) => {
      const file = await exportFile(app.db, request.shop, request.params.id)
      return reply
        .header('Content-Type', file.contentType)
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition(file.fileName))
        .header('Cache-Control', 'private, no-store')
        .send(createReadStream(file.path))
    },
  })
}

/** `attachment` with an ASCII `filename` and the RFC 5987 `filename*` (UTF-8). */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`
}
