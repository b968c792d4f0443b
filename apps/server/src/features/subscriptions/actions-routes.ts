import { ZChurnRequest, ZContractActionRequest, ZContractActionResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createContractActions } from './actions-service.ts'

/** POST /app-admin/pause, /resume, /churn (spec §7 contract actions). */
export function contractActionRoutes(app: AppInstance, opts: { mailer?: Mailer } = {}): void {
  const api = apiRoutes(app, ['subscriptions'])
  const actions = createContractActions({
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    db: app.db,
    adminOrigin: app.platformOptions.adminOrigin,
    fetch: app.platformOptions.fetch,
    client: app.platformOptions.clientRetry,
    log: app.log,
    clients: app.shopClients,
  })
  const response = { 200: ZContractActionResponse, ...errorAnswers(404, 409, 422, 502) }

  api.post('/app-admin/pause', '契約を一時停止', {
    body: ZContractActionRequest,
    response,
    handler: (request) => actions.run(request.shop, 'pause', request.body),
  })

  api.post('/app-admin/resume', '一時停止中・決済失敗の契約を再開', {
    body: ZContractActionRequest,
    response,
    handler: (request) => actions.run(request.shop, 'resume', request.body),
  })

  api.post('/app-admin/churn', '契約を解約（任意で解約理由）', {
    body: ZChurnRequest,
    response,
    handler: (request) => actions.run(request.shop, 'churn', request.body),
  })
}
