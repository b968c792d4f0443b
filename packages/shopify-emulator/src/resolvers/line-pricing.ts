import type { ResolverMap } from '../attach-resolvers.ts'
import type { Context } from '../context.ts'
import { allocateDiscounts, cycleAdjustments } from '../pricing.ts'
import type { ContractLineRecord, LinePricingPolicyRecord } from '../records.ts'
import type { DiscountRecord, DraftRecord } from '../records-extra.ts'
import { asDiscount } from './drafts.ts'

/** A contract or draft: the lines and the discounts split over them. */
export type LineOwner = { lines: readonly ContractLineRecord[]; discounts?: readonly DiscountRecord[] }

// A line record does not know its contract, and a draft's lines share their ids with the
// contract's; the `lines` fields hand the line out tagged with its owner instead. Only owners
// with discounts tag (a copy per line), so generated shops' lines are served as they are.
const OWNER = Symbol('line owner')
type OwnedLine = ContractLineRecord & { [OWNER]?: LineOwner }

/** `line` as `owner`'s, for `discountAllocations`. */
export function ownedLine<T extends ContractLineRecord | null | undefined>(line: T, owner: LineOwner): T {
  if (!line || !owner.discounts?.length) return line
  return { ...line, [OWNER]: owner }
}

/** `lines` (by default all of them) as `owner`'s. */
export function linesOf(owner: LineOwner, lines: readonly ContractLineRecord[] = owner.lines) {
  return owner.discounts?.length ? lines.map((l) => ownedLine(l, owner)) : lines
}

export const linePricingResolvers: ResolverMap = {
  SubscriptionLine: {
    // Lines saved before pricing policies existed have no field: null, like a line without one.
    pricingPolicy: (l: ContractLineRecord) => l.pricingPolicy ?? null,
    discountAllocations: (l: OwnedLine, _a, ctx: Context) => {
      const owner = l[OWNER]
      if (!owner?.discounts?.length) return []
      const mine = allocateDiscounts(owner.lines, owner.discounts, ctx.shop.info.currencyCode).get(l.id) ?? []
      return mine.map((a) => ({ amount: a.amount, discount: asDiscount(a.discount) }))
    },
  },
  SubscriptionPricingPolicy: {
    cycleDiscounts: (p: LinePricingPolicyRecord, _a, ctx: Context) =>
      cycleAdjustments(p, ctx.shop.info.currencyCode),
  },
  // The line a draft mutation returns is the draft's.
  SubscriptionDraftLineAddPayload: {
    lineAdded: (p: { draft: DraftRecord | null; lineAdded: ContractLineRecord | null }) =>
      p.draft ? ownedLine(p.lineAdded, p.draft) : p.lineAdded,
  },
  SubscriptionDraftLineUpdatePayload: {
    lineUpdated: (p: { draft: DraftRecord | null; lineUpdated: ContractLineRecord | null }) =>
      p.draft ? ownedLine(p.lineUpdated, p.draft) : p.lineUpdated,
  },
}
