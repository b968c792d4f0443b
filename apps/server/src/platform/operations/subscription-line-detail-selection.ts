type Money = { amount: string; currencyCode: string }

/** A line as the detail page shows it: with its discount allocations and pricing policy. */
export const DETAIL_LINE_SELECTION = /* GraphQL */ `{
          id
          productId
          variantId
          title
          variantTitle
          quantity
          sellingPlanId
          sellingPlanName
          currentPrice { amount currencyCode }
          variantImage { url }
          discountAllocations { amount { amount currencyCode } }
          pricingPolicy {
            basePrice { amount currencyCode }
            cycleDiscounts {
              adjustmentType
              adjustmentValue {
                __typename
                ... on SellingPlanPricingPolicyPercentageValue { percentage }
                ... on MoneyV2 { amount currencyCode }
              }
              afterCycle
              computedPrice { amount currencyCode }
            }
          }
        }`

export type PlatformDetailLine = {
  id: string
  productId: string | null
  variantId: string | null
  title: string
  variantTitle: string | null
  quantity: number
  sellingPlanId: string | null
  sellingPlanName: string | null
  currentPrice: Money
  variantImage: { url: string } | null
  discountAllocations: Array<{ amount: Money }>
  pricingPolicy: {
    basePrice: Money
    cycleDiscounts: Array<{
      adjustmentType: string
      adjustmentValue:
        | { __typename: 'SellingPlanPricingPolicyPercentageValue'; percentage: number }
        | ({ __typename: 'MoneyV2' } & Money)
      afterCycle: number
      computedPrice: Money
    }>
  } | null
}

export type PlatformDetailLineConnection = {
  nodes: PlatformDetailLine[]
  pageInfo: { hasNextPage: boolean; endCursor: string | null }
}
