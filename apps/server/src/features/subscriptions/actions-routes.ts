import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createContractActions } from './actions-service.ts'

/** POST /app-admin/pause, /resume, /churn (spec §7 contract actions). */
export function contractActionRoutes(app: AppInstance, opts: { mailer?: Mailer } = {}): void {
  const actions = createContractActions({
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    db: app.db,
    adminOrigin: app.platformOptions.adminOrigin,
    fetch: app.platformOptions.fetch,
    client: app.platformOptions.clientRetry,
    log: app.log,
    clients: app.shopClients,
  })
  const response = { 404: ZErrorResponse, 409: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse }

  app.route({
    ...tableRoute('POST /pause', {
      tags: ['subscriptions'],
      summary: '契約を一時停止',
      errors: { ...response },
    }),
    handler: (request) => actions.run(request.shop, 'pause', request.body),
  })

  app.route({
    ...tableRoute('POST /resume', {
      tags: ['subscriptions'],
      summary: '一時停止中・決済失敗の契約を再開',
      errors: { ...response },
    }),
    handler: (request) => actions.run(request.shop, 'resume', request.body),
  })

  app.route({
    ...tableRoute('POST /churn', {
      tags: ['subscriptions'],
      summary: '契約を解約（任意で解約理由）',
      errors: { ...response },
    }),
    handler: (request) => actions.run(request.shop, 'churn', request.body),
  })
}
