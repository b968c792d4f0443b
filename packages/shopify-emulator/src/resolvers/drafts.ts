import type { ResolverMap } from '../attach-resolvers.ts'
import { connection } from '../connection.ts'
import type { Context } from '../context.ts'
import type { ContractRecord } from '../records.ts'
import type { DiscountRecord, DraftRecord } from '../records-extra.ts'
import { extraOf } from '../shop-extra.ts'
import { findById } from '../store.ts'
import { linesOf } from './line-pricing.ts'
import { byGid } from './lookup.ts'

/** A discount as a member of the SubscriptionDiscount union: codes stay codes until committed. */
export const asDiscount = (d: DiscountRecord) => ({
  ...d,
  __typename: d.redeemCode === null ? 'SubscriptionManualDiscount' : 'SubscriptionAppliedCodeDiscount',
})

const contractOf = (d: DraftRecord, ctx: Context) => findById(ctx.shop.contracts, d.contractId)

function diff<T extends { id: number }>(mine: readonly T[], theirs: readonly T[]): T[] {
  const ids = new Set(theirs.map((x) => x.id))
  return mine.filter((x) => !ids.has(x.id))
}

export const draftResolvers: ResolverMap = {
  QueryRoot: {
    subscriptionDraft: (_s, args, ctx: Context) =>
      byGid(extraOf(ctx.shop, ctx.now()).drafts, args.id, 'SubscriptionDraft'),
  },
  SubscriptionDraft: {
    customer: (d: DraftRecord, _a, ctx: Context) => findById(ctx.shop.customers, d.customerId),
    customerPaymentMethod: (d: DraftRecord, args, ctx: Context) => {
      const pm = d.paymentMethodId === null ? undefined : findById(ctx.shop.paymentMethods, d.paymentMethodId)
      return !pm || (pm.revokedAt !== null && !args.showRevoked) ? null : pm
    },
    originalContract: (d: DraftRecord, _a, ctx: Context) => contractOf(d, ctx) ?? null,
    lines: (d: DraftRecord, args) => connection(linesOf(d), args),
    linesAdded: (d: DraftRecord, args, ctx: Context) =>
      connection(linesOf(d, diff(d.lines, contractOf(d, ctx)?.lines ?? [])), args),
    linesRemoved: (d: DraftRecord, args, ctx: Context) => {
      // Removed lines are still the contract's.
      const contract = contractOf(d, ctx)
      return connection(contract ? linesOf(contract, diff(contract.lines, d.lines)) : [], args)
    },
    discounts: (d: DraftRecord, args) => connection(d.discounts.map(asDiscount), args),
    discountsAdded: (d: DraftRecord, args, ctx: Context) =>
      connection(diff(d.discounts, contractOf(d, ctx)?.discounts ?? []).map(asDiscount), args),
    discountsRemoved: (d: DraftRecord, args, ctx: Context) =>
      connection(diff(contractOf(d, ctx)?.discounts ?? [], d.discounts).map(asDiscount), args),
  },
  SubscriptionContract: {
    discounts: (c: ContractRecord, args) => connection(c.discounts ?? [], args),
  },
  SubscriptionManualDiscount: {
    entitledLines: () => ({ all: true }),
    value: (d: DiscountRecord) =>
      'percentage' in d.value
        ? { __typename: 'SubscriptionDiscountPercentageValue', percentage: d.value.percentage }
        : { __typename: 'SubscriptionDiscountFixedAmountValue', ...d.value },
  },
  SubscriptionAppliedCodeDiscount: {
    rejectionReason: () => null,
  },
}
