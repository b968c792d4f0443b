import type { Db, DbClient } from '../db/pool.ts'
import type { Mailer } from '../mail/mailer.ts'
import { idFromGid } from '../platform/gid.ts'
import type { PlatformBillingAttempt } from '../platform/operations/contract-fragments.ts'
import type { ChargeCheck } from '../platform/operations/subscription-charge-check.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { type AttemptStart, attemptOf, type BeforeStore, retryCycle, watch } from './charge.ts'
import { priceCharge, quoteNextCycle } from './cycle-prices.ts'
import { type CycleRow, findCycleOfAttempt } from './cycles-repo.ts'
import type { BillingLog, BillingScheduler, EngineContext } from './engine-context.ts'
import { type AwaitOptions, awaitOutcomes, onAttemptOutcome, pollCycle } from './outcomes.ts'
import { checkBeforeCharge } from './pre-charge.ts'
import { reviewChallenges, settledLate } from './settle-challenge.ts'

export { CHALLENGE_MAIL_SUBJECT, FAILURE_MAIL_SUBJECT, ORDER_MAIL_SUBJECT } from './mail.ts'

export type BillingEngineOptions = {
  db: Db
  clients: ShopClients
  mailer: Mailer
  log?: BillingLog
  scheduler?: BillingScheduler
}

const silent: BillingLog = { warn: () => {}, error: () => {} }

export type BillingEngine = ReturnType<typeof createBillingEngine>

/**
 * Follows billing attempts to their outcome and applies it. Every path that learns an outcome
 * (the billing webhook, the poll job, a CLI run polling) calls `onAttemptOutcome`; they may
 * race. Platform follow-ups are computed from the cycle row (its due instant), not from the
 * moment they run, so repeating them sets the same values; the cycle row's conditional status
 * update in the final transaction lets exactly one of them write the history, count the run
 * and send the mail. The parts live beside this file (ARCHITECTURE.md, "Billing engine").
 */
export function createBillingEngine(opts: BillingEngineOptions) {
  const ctx: EngineContext = {
    db: opts.db,
    clientFor: (shop) => opts.clients.clientFor(shop),
    mailer: opts.mailer,
    log: opts.log ?? silent,
    scheduler: opts.scheduler,
  }
  const applyFor = (shop: ShopRow, now?: Date) => (attempt: PlatformBillingAttempt) =>
    onAttemptOutcome(ctx, shop, attempt, now ? { now } : {})
  return {
    /** Whether the attempt is one of the engine's charges (a billing_cycles row holds it). */
    ownsAttempt: async (shopId: string, attempt: PlatformBillingAttempt) =>
      (await findCycleOfAttempt(ctx.db, shopId, {
        id: idFromGid(attempt.id),
        idempotencyKey: attempt.idempotencyKey,
      })) !== null,
    /**
     * Hands the outcome to a job inside `tx` (true), or answers false without a job queue:
     * the caller then applies it itself (onAttemptOutcome).
     */
    /** Whether outcomes can be handed to a job (settleLater): a job queue is plugged in. */
    hasJobs: () => ctx.scheduler !== undefined,
    async settleLater(tx: DbClient, shopId: string, attempt: PlatformBillingAttempt): Promise<boolean> {
      if (!ctx.scheduler) return false
      await ctx.scheduler.settleLater(tx, shopId, attempt)
      return true
    },
    onAttemptOutcome: (
      shopOrId: ShopRow | string,
      attempt: PlatformBillingAttempt,
      options?: { now?: Date },
    ) => onAttemptOutcome(ctx, shopOrId, attempt, options),
    checkBeforeCharge: (shop: ShopRow, contractId: string, dueAt: Date) =>
      checkBeforeCharge(ctx, shop, contractId, dueAt),
    priceCharge: (shop: ShopRow, row: CycleRow, check: ChargeCheck | null) =>
      priceCharge(ctx, shop, row, check),
    /** The next cycle's line prices as the charge will carry them, for the mails quoting it. */
    quoteNextCycle: (shop: ShopRow, contractId: string) => quoteNextCycle(ctx, shop, contractId),
    /** Null also when a late 3-D Secure success settled the cycle: nothing to charge again. */
    retryCycle: async (
      shop: ShopRow,
      cycleId: string,
      attemptNo: number,
      options?: { runId?: string | null; dueBy?: Date; beforeStore?: BeforeStore },
    ): Promise<AttemptStart | null> => {
      if (await settledLate(ctx, shop, cycleId, applyFor(shop))) return null
      return retryCycle(ctx, shop, cycleId, attemptNo, options)
    },
    /** True when a cycle whose challenge expired turns out paid (see settledLate). */
    settledLate: (shop: ShopRow, cycleId: string) => settledLate(ctx, shop, cycleId, applyFor(shop)),
    /** The daily run's review of open 3-D Secure challenges at `now` (settle-challenge.ts). */
    reviewChallenges: (shop: ShopRow, now: Date) => reviewChallenges(ctx, shop, applyFor(shop, now)),
    attemptOf: (shop: ShopRow, row: CycleRow, beforeStore?: BeforeStore) =>
      attemptOf(ctx, shop, row, beforeStore),
    pollCycle: (shop: ShopRow, cycleId: string, options?: { now?: Date }) =>
      pollCycle(ctx, shop, cycleId, options),
    awaitOutcomes: (shop: ShopRow, cycleIds: string[], options?: AwaitOptions) =>
      awaitOutcomes(ctx, shop, cycleIds, options),
    watch: (shopId: string, row: CycleRow) => watch(ctx, shopId, row),
    setScheduler(next: BillingScheduler | undefined) {
      ctx.scheduler = next
    },
  }
}
