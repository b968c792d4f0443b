import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createReason, deleteReason, listReasons, updateReason } from './repo.ts'
import { cancellationReasonsGroupedBy, contractCancellationReason } from './service.ts'

/** The shop's cancellation reasons and what contracts were cancelled with (spec §7). */
export function cancellationReasonRoutes(app: AppInstance): void {
  const tags = ['cancellation-reasons']

  app.route({
    ...tableRoute('GET /cancellation-reasons', { tags, summary: '解約理由の一覧' }),
    handler: async (request) => ({ reasons: await listReasons(app.db, request.shop.id) }),
  })

  app.route({
    ...tableRoute('POST /cancellation-reasons', {
      tags,
      summary: '解約理由を追加',
      errors: { 409: ZErrorResponse },
    }),
    handler: async (request, reply) => {
      const created = await createReason(app.db, request.shop.id, request.body.reason)
      return reply.code(201).send(created)
    },
  })

  app.route({
    ...tableRoute('PUT /cancellation-reasons/:id', {
      tags,
      summary: '解約理由を変更（記録済みの解約の理由は変わりません）',
      errors: { 404: ZErrorResponse, 409: ZErrorResponse },
    }),
    handler: (request) => updateReason(app.db, request.shop.id, request.params.id, request.body.reason),
  })

  app.route({
    ...tableRoute('DELETE /cancellation-reasons/:id', {
      tags,
      summary: '解約理由を削除（記録済みの解約の理由は残ります）',
      errors: { 404: ZErrorResponse },
    }),
    handler: async (request, reply) => {
      await deleteReason(app.db, request.shop.id, request.params.id)
      return reply.code(204).send(null)
    },
  })

  app.route({
    ...tableRoute('GET /subscription-contracts/cancellation-reasons-grouped-by', {
      tags,
      summary: '解約理由ごとの解約数（解約日で絞り込み可）',
    }),
    handler: (request) => cancellationReasonsGroupedBy(app.db, request.shop, request.query),
  })

  app.route({
    ...tableRoute('GET /subscription-contracts/:id/cancellation-reason', {
      tags,
      summary: '契約の解約理由',
      errors: { 404: ZErrorResponse },
    }),
    handler: (request) => contractCancellationReason(app.db, request.shop, request.params.id),
  })
}
