import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import type { BillingAttemptRecord } from '../records.ts'
import { byGid, manyById } from '../resolvers/lookup.ts'
import { nextId } from '../store.ts'
import { settleAttempt } from './billing-outcome.ts'
import { lookup, parseTime, userError } from './common.ts'

type AttemptInput = { idempotencyKey: string; originTime?: string | null }

const keyOf = (a: BillingAttemptRecord) => a.idempotencyKey ?? `teiki-${a.contractId}-${a.id}`

const failed = (field: string[], message: string, code: string) => ({
  subscriptionBillingAttempt: null,
  userErrors: [userError(field, message, code)],
})

export const billingAttemptMutations: ResolverMap = {
  QueryRoot: {
    subscriptionBillingAttempt: (_s, args, ctx: Context) =>
      byGid(ctx.shop.billingAttempts, args.id, 'SubscriptionBillingAttempt'),
  },
  Mutation: {
    subscriptionBillingAttemptCreate: (
      _s,
      args: { subscriptionContractId: string; subscriptionBillingAttemptInput: AttemptInput },
      ctx: Context,
    ) => {
      const input = args.subscriptionBillingAttemptInput
      const c = lookup(ctx.shop.contracts, args.subscriptionContractId, 'SubscriptionContract')
      if (!c)
        return failed(
          ['subscriptionContractId'],
          'Subscription contract does not exist',
          'CONTRACT_NOT_FOUND',
        )
      const key = input.idempotencyKey.trim()
      if (key === '')
        return failed(['subscriptionBillingAttemptInput', 'idempotencyKey'], "can't be blank", 'BLANK')
      // The idempotency key is what makes a retried charge safe: same key, same attempt, one charge.
      const existing = manyById(ctx.shop.billingAttempts, c.billingAttemptIds).find((a) => keyOf(a) === key)
      if (existing) return { subscriptionBillingAttempt: existing, userErrors: [] }
      if (c.status === 'CANCELLED' || c.status === 'EXPIRED')
        return failed(['subscriptionContractId'], 'Contract is terminated', 'CONTRACT_TERMINATED')
      if (c.status === 'PAUSED')
        return failed(['subscriptionContractId'], 'Contract is paused', 'CONTRACT_PAUSED')
      const originTime = input.originTime ? parseTime(input.originTime) : null
      if (originTime !== null && Number.isNaN(originTime))
        return failed(['subscriptionBillingAttemptInput', 'originTime'], 'Origin time is invalid', 'INVALID')
      if (originTime !== null && originTime < c.createdAt) {
        return failed(
          ['subscriptionBillingAttemptInput', 'originTime'],
          'Origin time cannot be before the contract creation time',
          'ORIGIN_TIME_BEFORE_CONTRACT_CREATION',
        )
      }
      const attempt: BillingAttemptRecord = {
        id: nextId(ctx.shop, 'SubscriptionBillingAttempt'),
        contractId: c.id,
        createdAt: Math.floor(ctx.now() / 1000) * 1000,
        completedAt: null,
        originTime: originTime === null ? null : Math.floor(originTime / 1000) * 1000,
        ready: false,
        errorCode: null,
        errorMessage: null,
        idempotencyKey: key,
        orderId: null,
      }
      ctx.shop.billingAttempts.push(attempt)
      c.billingAttemptIds = [...c.billingAttemptIds, attempt.id]
      ctx.store.changed()
      ctx.runtime.later(ctx.runtime.billingDelayMs(), () => settleAttempt(ctx, attempt))
      return { subscriptionBillingAttempt: attempt, userErrors: [] }
    },
  },
}
