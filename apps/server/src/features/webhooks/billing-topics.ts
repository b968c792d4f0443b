import { outsideRequest } from '../../http/request-context.ts'
import { type AttemptOutcome, attemptOutcome } from '../../platform/attempt-outcome.ts'
import { idFromGid } from '../../platform/gid.ts'
import { fetchSubscriptionBillingAttempt } from '../../platform/operations/subscription-billing-attempt.ts'
import { upsertBillingAttempt } from '../../sync/billing-attempts-repo.ts'
import { appendContractEvent, lockContract } from '../../sync/contracts-repo.ts'
import { upsertOrder } from '../../sync/mirror-repo.ts'
import { billingAttemptRecord, orderRecord as platformOrderRecord } from '../../sync/records.ts'
import { refreshContract } from './contract-topics.ts'
import { type Apply, gidFrom, requireClient, type TopicHandler } from './handler.ts'

/**
 * subscription_billing_attempts/success|failure|challenged: the attempt row, on success its
 * order (linked to the contract, which only the attempt knows), the contract refreshed when the
 * attempt is not the engine's (its lastPaymentStatus moved) and one billing event per outcome.
 * Everything is read from the
 * platform with the header shop's token: the payload has neither the attempt's creation time
 * nor the order's total, and only the platform's answer shows the attempt is this shop's and
 * has the outcome the (unsigned) topic claims. An attempt the platform does not know, or whose
 * outcome is not the topic's, is ignored and nothing is recorded.
 *
 * An attempt of the billing engine (a billing_cycles row holds it) is handed to the engine
 * first, outside the transaction: it advances the schedule or runs dunning on the platform and
 * writes its own history (`billed` / `billing_failed` / `billing_challenged`, and mails the
 * customer the 3-D Secure link), so this handler then only mirrors the rows and the contract as
 * the engine left it. If the engine fails, the delivery fails and the platform redelivers; the
 * engine's steps are idempotent.
 *
 * Replays (a new webhook id) change nothing: the engine settles a cycle row once, the attempt
 * upsert reports no change for an outcome it already holds (so no second event), and the
 * order and contract writes are upserts of the platform's current state.
 */
export const billingAttemptTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const client = requireClient(ctx)
    const attemptGid = gidFrom(ctx.payload, 'SubscriptionBillingAttempt')
    if (!attemptGid) return null
    const attempt = await fetchSubscriptionBillingAttempt(client, attemptGid)
    const outcome = TOPIC_OUTCOME[ctx.topic]
    if (!attempt || !outcome || attemptOutcome(attempt).kind !== outcome) {
      ctx.log.info(
        { shop: ctx.shop.domain, topic: ctx.topic, attemptGid, outcome },
        'billing attempt not backed by the platform',
      )
      return null
    }
    // The contract the signed body names (the attempt, read with this shop's token, is this shop's).
    const contractGid = gidFrom(
      ctx.payload,
      'SubscriptionContract',
      'subscription_contract_id',
      'admin_graphql_api_subscription_contract_id',
    )
    if (!contractGid) return null
    const contractId = idFromGid(contractGid)
    const record = billingAttemptRecord(attempt, contractId)
    const succeeded = outcome === 'success'
    const order = succeeded && attempt.order ? platformOrderRecord(attempt.order, contractId) : null
    const engine = ctx.billing
    const owned = engine ? await engine.ownsAttempt(ctx.shop.id, attempt) : false
    // The engine's follow-ups (schedule, dunning) are the shop's background work, not bound to
    // this delivery's deadline: with a job queue they are handed to a job in the delivery's
    // transaction (the delivery answers at once); without one they run here, outside it.
    const handOver = owned && engine?.hasJobs()
    const engineOutcome =
      engine && owned && !handOver
        ? await outsideRequest(() => engine.onAttemptOutcome(ctx.shop.id, attempt))
        : 'ignored'
    const ownedByEngine = owned || engineOutcome !== 'ignored'
    // The engine mirrored the contract as its follow-ups left it; another app's attempt moved
    // the contract's lastPaymentStatus, which only a read shows.
    const writeContract = ownedByEngine
      ? async () => []
      : await refreshContract(ctx.db, client, ctx.shop.id, contractGid)

    return async (tx) => {
      const shopId = ctx.shop.id
      await lockContract(tx, shopId, contractId)
      const changed = await upsertBillingAttempt(tx, shopId, record)
      if (order) await upsertOrder(tx, shopId, order)
      await writeContract(tx, shopId)
      if (handOver) await engine!.settleLater(tx, shopId, attempt)
      if (!changed || ownedByEngine) return
      await appendContractEvent(tx, shopId, 'webhook', {
        contractId,
        type: EVENT_OF[outcome],
        occurredAt: (succeeded ? order?.created_at : null) ?? attempt.completedAt ?? record.created_at,
        payload: {
          attemptId: record.id,
          idempotencyKey: record.idempotency_key,
          orderId: record.order_id,
          amount: order?.total_amount ?? null,
          currencyCode: order?.currency_code ?? null,
          ...(succeeded ? {} : { errorCode: record.error_code, errorMessage: record.error_message }),
        },
      })
    }
  },
}

type Reported = Exclude<AttemptOutcome['kind'], 'pending'>

/** The outcome (attemptOutcome) each topic reports; a pending attempt backs none. */
const TOPIC_OUTCOME: Record<string, Reported> = {
  'subscription_billing_attempts/success': 'success',
  'subscription_billing_attempts/failure': 'failed',
  'subscription_billing_attempts/challenged': 'challenged',
}

/** The history row of an outcome the engine does not own (an attempt outside the billing cycles). */
const EVENT_OF: Record<Reported, string> = {
  success: 'billing_succeeded',
  failed: 'billing_failed',
  challenged: 'billing_challenged',
}
