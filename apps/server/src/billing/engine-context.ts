import type { Db, DbClient } from '../db/pool.ts'
import type { Mailer } from '../mail/mailer.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import type { PlatformBillingAttempt } from '../platform/operations/contract-fragments.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import type { CycleStatus } from './cycles-repo.ts'

/** Where jobs come in: the app process plugs pg-boss here; the CLI and tests run without. */
export type BillingScheduler = {
  /** Check the attempt later, in case its webhook never arrives. */
  pollLater(shopId: string, cycleId: string, attemptNo: number): Promise<void>
  /** Run dunning retry `attemptNo + 1` of the cycle at `at`. */
  retryAt(shopId: string, cycleId: string, attemptNo: number, at: Date): Promise<void>
  /**
   * Apply an attempt's outcome (as read) in a job, sent inside `tx`: a webhook delivery hands
   * its outcome over and answers at once instead of waiting for the follow-ups' mutations.
   */
  settleLater(tx: DbClient, shopId: string, attempt: PlatformBillingAttempt): Promise<void>
}

export type BillingLog = {
  info?: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
  error: (obj: object, msg: string) => void
}

/** What became of an attempt's cycle: its status, 'pending' (not ready), or 'ignored' (not ours). */
export type OutcomeResult = CycleStatus | 'pending' | 'ignored'

/**
 * What every part of the engine works with, built once by createBillingEngine. `scheduler`
 * is read at each use: the jobs plug it in after the engine exists and take it out on close.
 */
export type EngineContext = {
  db: Db
  /** The shop's paced Admin client (one per shop, shared with the request handlers). */
  clientFor: (shop: ShopRow) => AdminClient
  mailer: Mailer
  log: BillingLog
  scheduler: BillingScheduler | undefined
}
