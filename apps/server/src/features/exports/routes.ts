import { createReadStream } from 'node:fs'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import {
  createExportJob,
  type EnqueueExport,
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
  const route = tableRoutes(app, { tags: ['exports'] })
  route(
    'POST /export-subscription-contracts',
    '契約をCSVでエクスポート（絞り込み条件・文字コード・送信先メール）',
    {
      errors: [400],
      handler: async (request) => {
        const job = await createExportJob(app.db, request.shop, request.body, opts.enqueue)
        return toApiJob(job, request.shop.iana_timezone)
      },
    },
  )

  route('GET /export-subscription-contracts', '最近のエクスポート（新しい順に10件）', {
    handler: async (request) => ({
      exports: (await listExportJobs(app.db, request.shop)).map((job) =>
        toApiJob(job, request.shop.iana_timezone),
      ),
    }),
  })

  route('GET /export-subscription-contracts/:id', 'エクスポートの進捗', {
    errors: [404],
    handler: async (request) =>
      toApiJob(await getExportJob(app.db, request.shop, request.params.id), request.shop.iana_timezone),
  })

  route('GET /export-subscription-contracts/:id/download', 'エクスポートしたCSVをダウンロード', {
    errors: [404, 409],
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
