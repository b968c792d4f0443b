import type { AppInstance } from '../../http/app-instance.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createContractEdits } from '../subscriptions/edits-service.ts'
import type { BatchDeps } from './run.ts'

/** What the batch routes and jobs share: the app's pool, its shop clients, the contract edits, mail. */
export function batchDeps(app: AppInstance, mailer: Mailer | undefined, concurrency?: number): BatchDeps {
  const clients = app.shopClients
  return {
    db: app.db,
    clients,
    edits: createContractEdits({ db: app.db, clients, log: app.log, billing: app.billingEngine }),
    ...(mailer ? { mailer } : {}),
    ...(concurrency ? { concurrency } : {}),
    log: app.log,
  }
}
