import { activeBillingEngine } from '../../billing/registry.ts'
import { idFromGid, maybeIdFromGid } from '../../platform/gid.ts'
import {
  fetchSubscriptionBillingAttempt,
  type PlatformBillingAttempt,
} from '../../platform/operations/subscription-billing-attempt.ts'
import { appendContractEvent } from '../../sync/contracts-repo.ts'
import { billingAttemptRecord, orderRecord as platformOrderRecord } from '../../sync/records.ts'
import { refreshContract } from './contract-topics.ts'
import { type Apply, gidFrom, nothing, type Payload, requireClient, type TopicHandler } from './handler.ts'
import {
  type BillingAttemptRecord,
  lockContract,
  type OrderRecord,
  upsertBillingAttempt,
  upsertOrder,
} from './repo.ts'

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/**
 * subscription_billing_attempts/success|failure: the attempt row, on success its order
 * (linked to the contract, which only the attempt knows), the contract refreshed (its
 * lastPaymentStatus moved) and one billing event per outcome. The attempt is read from the
 * platform because the payload has neither its creation time nor the order's total.
 *
 * An attempt of the billing engine (a billing_cycles row holds it) is handed to the engine
 * first, outside the transaction: it advances the schedule or runs dunning on the platform and
 * writes its own history (`billed` / `billing_failed`), so this handler then only mirrors the
 * rows and the contract as the engine left it. If the engine fails, the delivery fails and the
 * platform redelivers; the engine's steps are idempotent.
 */
export const billingAttemptTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    const client = requireClient(ctx)
    const attemptGid = gidFrom(ctx.payload, 'SubscriptionBillingAttempt')
    if (!attemptGid) return nothing
    const attempt = await fetchSubscriptionBillingAttempt(client, attemptGid)
    const contractGid =
      attempt?.subscriptionContract.id ??
      gidFrom(
        ctx.payload,
        'SubscriptionContract',
        'subscription_contract_id',
        'admin_graphql_api_subscription_contract_id',
      )
    if (!contractGid) return nothing
    const contractId = idFromGid(contractGid)
    const fallbackTime = (ctx.triggeredAt ?? new Date()).toISOString()
    const record = attempt
      ? billingAttemptRecord(attempt, contractId)
      : payloadRecord(ctx.payload, attemptGid, contractId, fallbackTime)
    const succeeded = ctx.topic.endsWith('/success')
    const order = succeeded ? orderRecord(attempt, ctx.payload, contractId, fallbackTime) : null
    const engine = activeBillingEngine()
    const engineOutcome =
      engine && attempt?.ready ? await engine.onAttemptOutcome(ctx.shop.id, attempt) : 'ignored'
    const ownedByEngine = engineOutcome !== 'ignored'
    const writeContract = await refreshContract(client, contractGid)

    return async (tx) => {
      const shopId = ctx.shop.id
      await lockContract(tx, shopId, contractId)
      const changed = await upsertBillingAttempt(tx, shopId, record)
      if (order) await upsertOrder(tx, shopId, order)
      await writeContract(tx, shopId)
      if (!changed || !record.ready || ownedByEngine) return
      await appendContractEvent(tx, shopId, 'webhook', {
        contractId,
        type: succeeded ? 'billing_succeeded' : 'billing_failed',
        occurredAt: (succeeded ? order?.created_at : null) ?? attempt?.completedAt ?? record.created_at,
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

/** The platform no longer knows the attempt: keep what the payload says. */
function payloadRecord(p: Payload, gid: string, contractId: string, at: string): BillingAttemptRecord {
  return {
    id: idFromGid(gid),
    contract_id: contractId,
    idempotency_key: text(p.idempotency_key) ?? '',
    ready: p.ready === true,
    error_code: text(p.error_code)?.toUpperCase() ?? null,
    error_message: text(p.error_message),
    order_id: maybeIdFromGid(gidFrom(p, 'Order', 'order_id', 'admin_graphql_api_order_id')),
    created_at: at,
  }
}

function orderRecord(
  a: PlatformBillingAttempt | null,
  p: Payload,
  contractId: string,
  at: string,
): OrderRecord | null {
  if (a?.order) return platformOrderRecord(a.order, contractId)
  const orderGid = gidFrom(p, 'Order', 'order_id', 'admin_graphql_api_order_id')
  if (!orderGid) return null
  return {
    id: idFromGid(orderGid),
    name: null,
    contract_id: contractId,
    customer_id: null,
    total_amount: null,
    currency_code: null,
    test: false,
    created_at: at,
    cancelled_at: null,
  }
}
