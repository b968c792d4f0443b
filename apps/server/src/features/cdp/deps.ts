import type { AppInstance } from '../../http/app-instance.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { createCustomerService } from './customers-service.ts'
import type { SegmentExportDeps } from './segment-export.ts'
import type { TagRunDeps } from './tag-run.ts'

/** What the CDP jobs need: the app's pool and shared shop clients (one pacing per shop), mail, files. */
export function cdpJobDeps(
  app: AppInstance,
  opts: { mailer: Mailer; dataDir: string; concurrency?: number },
): { tags: TagRunDeps; exports: SegmentExportDeps } {
  const customers = createCustomerService({ db: app.db, clients: app.shopClients })
  return {
    tags: {
      db: app.db,
      customers,
      log: app.log,
      ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    },
    exports: { db: app.db, mailer: opts.mailer, dataDir: opts.dataDir, log: app.log },
  }
}
