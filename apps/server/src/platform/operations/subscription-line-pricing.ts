import type { LinePricingPolicy, PricedLine } from '@teiki/domain'
import type { AdminClient } from '../admin-client.ts'
import type { PlatformPricingPolicy } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import type { PlatformAdjustmentValue } from './shared-fragments.ts'

/**
 * A contract's lines with their pricing policies, for the billing engine's repricing after a
 * charge (the platform charges currentPrice and never moves it; the app sets each cycle's
 * price). Asked separately from the contract's own selection, with `first` = the number of
 * lines the engine already knows: a policy costs about 6 points per line asked for, so the
 * 20 lines of the shared selection would double every refetch's cost.
 */
export const SUBSCRIPTION_LINE_PRICING = withFragments(/* GraphQL */ `
  query SubscriptionLinePricing($id: ID!, $first: Int!, $after: String) {
    subscriptionContract(id: $id) {
      currencyCode
      updatedAt
      revisionId
      lines(first: $first, after: $after) {
        nodes {
          id
          currentPrice { amount }
          pricingPolicy { ...LinePricingPolicyFields }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`)

/** An adjustment value as decimal text: a percentage as its number ("10"), an amount as its decimal ("300.0"). */
export function adjustmentValueText(value: PlatformAdjustmentValue): string {
  return value.__typename === 'SellingPlanPricingPolicyPercentageValue'
    ? String(value.percentage)
    : value.amount
}

type PlatformPricedLine = {
  id: string
  currentPrice: { amount: string }
  pricingPolicy: PlatformPricingPolicy | null
}

/** A line's pricing policy as the domain prices it; null for a line without one. */
export function policyOf(p: PlatformPricingPolicy | null | undefined): LinePricingPolicy | null {
  if (!p) return null
  return {
    basePrice: p.basePrice.amount,
    cycleDiscounts: p.cycleDiscounts.map((d) => ({
      adjustmentType: d.adjustmentType,
      adjustmentValue: adjustmentValueText(d.adjustmentValue),
      afterCycle: d.afterCycle,
    })),
  }
}

/**
 * Lines asked per page: a policy costs about 6 points a line, so 100 lines stay well under the
 * platform's 1,000-point cap on one query (the 200-line contracts of spec section 9 take two).
 */
export const LINE_PRICING_PAGE = 100

type PricingPage = {
  currencyCode: string
  updatedAt: string
  revisionId: string | null
  lines: { nodes: PlatformPricedLine[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
}

export type ContractLinePricing = {
  currencyCode: string
  updatedAt: string
  revisionId: string | null
  lines: PricedLine[]
  /** False when the contract changed while its pages were read (twice): the lines may be mixed. */
  complete: boolean
}

/**
 * Every line of the contract with its policy, read `knownLines` at a time up to LINE_PRICING_PAGE
 * (a contract of 1 line costs a 1-line page); null when the platform no longer has the contract.
 * Pages of one revision only: a change between pages reads the contract again, once.
 */
export async function fetchLinePricing(
  client: AdminClient,
  contractId: string,
  knownLines: number,
): Promise<ContractLinePricing | null> {
  const first = Math.min(LINE_PRICING_PAGE, Math.max(1, knownLines))
  for (let attempt = 0; ; attempt++) {
    const read = await readAllPages(client, contractId, first)
    if (!read || read.consistent || attempt > 0) return read && { ...read.result, complete: read.consistent }
  }
}

async function readAllPages(client: AdminClient, contractId: string, first: number) {
  let after: string | null = null
  let head: PricingPage | null = null
  const lines: PricedLine[] = []
  let consistent = true
  do {
    const data: { subscriptionContract: PricingPage | null } = await client.request(
      'SubscriptionLinePricing',
      SUBSCRIPTION_LINE_PRICING,
      { id: contractId, first, after },
    )
    const page = data.subscriptionContract
    if (!page) return null
    if (head && (page.revisionId !== head.revisionId || page.updatedAt !== head.updatedAt)) consistent = false
    head ??= page
    for (const l of page.lines.nodes) {
      lines.push({ id: l.id, currentPrice: l.currentPrice.amount, pricingPolicy: policyOf(l.pricingPolicy) })
    }
    after = page.lines.pageInfo.hasNextPage ? page.lines.pageInfo.endCursor : null
  } while (after)
  const { currencyCode, updatedAt, revisionId } = head
  return { consistent, result: { currencyCode, updatedAt, revisionId, lines } }
}
