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
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createCancellationReasonService } from './service.ts'

/** The shop's cancellation reasons and what contracts were cancelled with (spec §7). */
export function cancellationReasonRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['cancellation-reasons'])
  const reasons = createCancellationReasonService(app.db)

  api.get('/app-admin/cancellation-reasons', '解約理由の一覧', {
    response: { 200: ZCancellationReasonList },
    handler: (request) => reasons.list(request.shop),
  })

  api.create('/app-admin/cancellation-reasons', '解約理由を追加', {
    body: ZCancellationReasonBody,
    created: ZCancellationReason,
    response: errorAnswers(409),
    handler: (request) => reasons.create(request.shop, request.body.reason),
  })

  api.put('/app-admin/cancellation-reasons/:id', '解約理由を変更（記録済みの解約の理由は変わりません）', {
    params: ZCancellationReasonParams,
    body: ZCancellationReasonBody,
    response: { 200: ZCancellationReason, ...errorAnswers(404, 409) },
    handler: (request) => reasons.update(request.shop, request.params.id, request.body.reason),
  })

  api.remove('/app-admin/cancellation-reasons/:id', '解約理由を削除（記録済みの解約の理由は残ります）', {
    params: ZCancellationReasonParams,
    response: errorAnswers(404),
    handler: (request) => reasons.remove(request.shop, request.params.id),
  })

  api.get(
    '/app-admin/subscription-contracts/cancellation-reasons-grouped-by',
    '解約理由ごとの解約数（解約日で絞り込み可）',
    {
      querystring: ZCancellationReasonsGroupedByQuery,
      response: { 200: ZCancellationReasonsGroupedBy },
      handler: (request) => reasons.groupedBy(request.shop, request.query),
    },
  )

  api.get('/app-admin/subscription-contracts/:id/cancellation-reason', '契約の解約理由', {
    params: ZContractIdParam,
    response: { 200: ZContractCancellationReason, ...errorAnswers(404) },
    handler: (request) => reasons.ofContract(request.shop, request.params.id),
  })
}
