import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import type { ContractStatus } from '../records.ts'
import { contractChanged, lookup, parseTime, userError } from './common.ts'

const TERMINAL: ReadonlySet<ContractStatus> = new Set(['CANCELLED', 'EXPIRED'])

/**
 * The platform's status moves: a cancelled or expired contract is over (CONTRACT_TERMINATED);
 * asking for the status a contract already has changes nothing and is not an error.
 */
function setStatus(target: ContractStatus, topic: string) {
  return (_s: unknown, args: { subscriptionContractId: string }, ctx: Context) => {
    const c = lookup(ctx.shop.contracts, args.subscriptionContractId, 'SubscriptionContract')
    if (!c) {
      return {
        contract: null,
        userErrors: [userError(['subscriptionContractId'], 'Subscription contract does not exist')],
      }
    }
    if (c.status === target) return { contract: c, userErrors: [] }
    if (TERMINAL.has(c.status)) {
      return {
        contract: c,
        userErrors: [
          userError(
            ['subscriptionContractId'],
            `Cannot change the status of a ${c.status.toLowerCase()} contract`,
            'CONTRACT_TERMINATED',
          ),
        ],
      }
    }
    c.status = target
    contractChanged(ctx, c, [topic])
    return { contract: c, userErrors: [] }
  }
}

export const contractStatusMutations: ResolverMap = {
  Mutation: {
    subscriptionContractActivate: setStatus('ACTIVE', 'subscription_contracts/activate'),
    subscriptionContractPause: setStatus('PAUSED', 'subscription_contracts/pause'),
    subscriptionContractCancel: setStatus('CANCELLED', 'subscription_contracts/cancel'),
    subscriptionContractFail: setStatus('FAILED', 'subscription_contracts/fail'),
    subscriptionContractExpire: setStatus('EXPIRED', 'subscription_contracts/expire'),
    subscriptionContractSetNextBillingDate: (
      _s,
      args: { contractId: string; date: string },
      ctx: Context,
    ) => {
      const c = lookup(ctx.shop.contracts, args.contractId, 'SubscriptionContract')
      if (!c) return { contract: null, userErrors: [userError(['contractId'], 'Contract does not exist')] }
      const at = parseTime(args.date)
      if (Number.isNaN(at)) return { contract: null, userErrors: [userError(['date'], 'Date is invalid')] }
      if (TERMINAL.has(c.status)) {
        return { contract: null, userErrors: [userError(['contractId'], 'Contract is not active')] }
      }
      c.nextBillingDate = Math.floor(at / 1000) * 1000
      contractChanged(ctx, c)
      return { contract: c, userErrors: [] }
    },
  },
}
