import type { LinePricingPolicy, PricedLine } from '@teiki/domain'
import type { AdminClient } from '../admin-client.ts'

/** The pricing policy of a line, as every document that reads one selects it. */
export const PRICING_POLICY_SELECTION = /* GraphQL */ `pricingPolicy {
            basePrice { amount }
            cycleDiscounts {
              adjustmentType
              adjustmentValue {
                __typename
                ... on SellingPlanPricingPolicyPercentageValue { percentage }
                ... on MoneyV2 { amount }
              }
              afterCycle
            }
          }`

/**
 * A contract's lines with their pricing policies, for the billing engine's repricing after a
 * charge (the platform charges currentPrice and never moves it; the app sets each cycle's
 * price). Asked separately from the contract's own selection, with `first` = the number of
 * lines the engine already knows: a policy costs about 6 points per line asked for, so the
 * 20 lines of the shared selection would double every refetch's cost.
 */
export const SUBSCRIPTION_LINE_PRICING = /* GraphQL */ `
  query SubscriptionLinePricing($id: ID!, $first: Int!) {
    subscriptionContract(id: $id) {
      currencyCode
      updatedAt
      revisionId
      lines(first: $first) {
        nodes {
          id
          currentPrice { amount }
          ${PRICING_POLICY_SELECTION}
        }
        pageInfo { hasNextPage }
      }
    }
  }
`

/** SubscriptionCyclePriceAdjustment.adjustmentValue as the platform answers it. */
export type PlatformAdjustmentValue =
  | { __typename: 'SellingPlanPricingPolicyPercentageValue'; percentage: number }
  | { __typename: 'MoneyV2'; amount: string }

/** An adjustment value as decimal text: a percentage as its number ("10"), an amount as its decimal ("300.0"). */
export function adjustmentValueText(value: PlatformAdjustmentValue): string {
  return value.__typename === 'SellingPlanPricingPolicyPercentageValue'
    ? String(value.percentage)
    : value.amount
}

/** The line pricing selection (pricingPolicy) as the platform answers it, also in the bulk export. */
export type PlatformPricingPolicy = PlatformPricedLine['pricingPolicy']

type PlatformPricedLine = {
  id: string
  currentPrice: { amount: string }
  pricingPolicy: {
    basePrice: { amount: string }
    cycleDiscounts: Array<{
      adjustmentType: 'PERCENTAGE' | 'FIXED_AMOUNT' | 'PRICE'
      adjustmentValue: PlatformAdjustmentValue
      afterCycle: number
    }>
  } | null
}

/** A line's pricing policy as the domain prices it; null for a line without one. */
export function policyOf(p: PlatformPricingPolicy | undefined): LinePricingPolicy | null {
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
 * The first `first` lines (1-250) of the contract with their policies; null when the platform
 * no longer has the contract. `complete` is false when the contract has more lines than asked.
 */
export async function fetchLinePricing(
  client: AdminClient,
  contractId: string,
  first: number,
): Promise<{
  currencyCode: string
  updatedAt: string
  revisionId: string | null
  lines: PricedLine[]
  complete: boolean
} | null> {
  const data = await client.request<{
    subscriptionContract: {
      currencyCode: string
      updatedAt: string
      revisionId: string | null
      lines: { nodes: PlatformPricedLine[]; pageInfo: { hasNextPage: boolean } }
    } | null
  }>('SubscriptionLinePricing', SUBSCRIPTION_LINE_PRICING, {
    id: contractId,
    first: Math.min(250, Math.max(1, first)),
  })
  const contract = data.subscriptionContract
  if (!contract) return null
  return {
    currencyCode: contract.currencyCode,
    updatedAt: contract.updatedAt,
    revisionId: contract.revisionId,
    lines: contract.lines.nodes.map((l) => ({
      id: l.id,
      currentPrice: l.currentPrice.amount,
      pricingPolicy: policyOf(l.pricingPolicy),
    })),
    complete: !contract.lines.pageInfo.hasNextPage,
  }
}
