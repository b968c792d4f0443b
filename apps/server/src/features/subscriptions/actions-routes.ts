import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
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
  const route = tableRoutes(app, { tags: ['subscriptions'], errors: [404, 409, 422, 502] })

  route('POST /pause', '契約を一時停止', {
    handler: (request) => actions.run(request.shop, 'pause', request.body),
  })
  route('POST /resume', '一時停止中・決済失敗の契約を再開', {
    handler: (request) => actions.run(request.shop, 'resume', request.body),
  })
  route('POST /churn', '契約を解約（任意で解約理由）', {
    handler: (request) => actions.run(request.shop, 'churn', request.body),
  })
}
