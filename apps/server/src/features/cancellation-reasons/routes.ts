import {
  ZCancellationReason,
  ZCancellationReasonBody,
  ZCancellationReasonList,
  ZCancellationReasonParams,
  ZCancellationReasonsGroupedBy,
  ZCancellationReasonsGroupedByQuery,
  ZContractCancellationReason,
  ZContractIdParam,
} from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createReason, deleteReason, listReasons, updateReason } from './repo.ts'
import { cancellationReasonsGroupedBy, contractCancellationReason } from './service.ts'

/** The shop's cancellation reasons and what contracts were cancelled with (spec §7). */
export function cancellationReasonRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['cancellation-reasons'])

  api.get(
    '/app-admin/cancellation-reasons',
    '解約理由の一覧',
    { response: { 200: ZCancellationReasonList } },
    async (request) => ({ reasons: await listReasons(app.db, request.shop.id) }),
  )

  api.post(
    '/app-admin/cancellation-reasons',
    '解約理由を追加',
    { body: ZCancellationReasonBody, response: { 201: ZCancellationReason, ...errorAnswers(409) } },
    async (request, reply) => {
      const created = await createReason(app.db, request.shop.id, request.body.reason)
      return reply.code(201).send(created)
    },
  )

  api.put(
    '/app-admin/cancellation-reasons/:id',
    '解約理由を変更（記録済みの解約の理由は変わりません）',
    {
      params: ZCancellationReasonParams,
      body: ZCancellationReasonBody,
      response: { 200: ZCancellationReason, ...errorAnswers(404, 409) },
    },
    (request) => updateReason(app.db, request.shop.id, request.params.id, request.body.reason),
  )

  api.delete(
    '/app-admin/cancellation-reasons/:id',
    '解約理由を削除（記録済みの解約の理由は残ります）',
    {
      params: ZCancellationReasonParams,
      response: { 204: z.null().describe('削除しました'), ...errorAnswers(404) },
    },
    async (request, reply) => {
      await deleteReason(app.db, request.shop.id, request.params.id)
      return reply.code(204).send(null)
    },
  )

  api.get(
    '/app-admin/subscription-contracts/cancellation-reasons-grouped-by',
    '解約理由ごとの解約数（解約日で絞り込み可）',
    { querystring: ZCancellationReasonsGroupedByQuery, response: { 200: ZCancellationReasonsGroupedBy } },
    (request) => cancellationReasonsGroupedBy(app.db, request.shop, request.query),
  )

  api.get(
    '/app-admin/subscription-contracts/:id/cancellation-reason',
    '契約の解約理由',
    { params: ZContractIdParam, response: { 200: ZContractCancellationReason, ...errorAnswers(404) } },
    (request) => contractCancellationReason(app.db, request.shop, request.params.id),
  )
}
