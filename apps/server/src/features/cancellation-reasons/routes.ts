import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createReason, deleteReason, listReasons, updateReason } from './repo.ts'
import { cancellationReasonsGroupedBy, contractCancellationReason } from './service.ts'

/** The shop's cancellation reasons and what contracts were cancelled with (spec §7). */
export function cancellationReasonRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['cancellation-reasons'] })

  route('GET /cancellation-reasons', '解約理由の一覧', {
    handler: async (request) => ({ reasons: await listReasons(app.db, request.shop.id) }),
  })

  route('POST /cancellation-reasons', '解約理由を追加', {
    errors: [409],
    handler: async (request) => {
      const created = await createReason(app.db, request.shop.id, request.body.reason)
      return created
    },
  })

  route('PUT /cancellation-reasons/:id', '解約理由を変更（記録済みの解約の理由は変わりません）', {
    errors: [404, 409],
    handler: (request) => updateReason(app.db, request.shop.id, request.params.id, request.body.reason),
  })

  route('DELETE /cancellation-reasons/:id', '解約理由を削除（記録済みの解約の理由は残ります）', {
    errors: [404],
    handler: (request) => deleteReason(app.db, request.shop.id, request.params.id),
  })

  route(
    'GET /subscription-contracts/cancellation-reasons-grouped-by',
    '解約理由ごとの解約数（解約日で絞り込み可）',
    {
      handler: (request) => cancellationReasonsGroupedBy(app.db, request.shop, request.query),
    },
  )

  route('GET /subscription-contracts/:id/cancellation-reason', '契約の解約理由', {
    errors: [404],
    handler: (request) => contractCancellationReason(app.db, request.shop, request.params.id),
  })
}
