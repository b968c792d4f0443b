import type { AppInstance } from '../../http/app-instance.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createContractEdits } from '../subscriptions/edits-service.ts'
import { sharedShopClients } from '../subscriptions/shop-client.ts'
import type { BatchDeps } from './run.ts'

/** What the batch routes and jobs share: the app's pool, its shop clients, the contract edits, mail. */
export function batchDeps(app: AppInstance, mailer: Mailer | undefined, concurrency?: number): BatchDeps {
  const clients = sharedShopClients(app.platformOptions)
  return {
    db: app.db,
    clients,
    edits: createContractEdits({ db: app.db, clients, log: app.log }),
    ...(mailer ? { mailer } : {}),
    ...(concurrency ? { concurrency } : {}),
    log: app.log,
  }
}
