// Selling plan groups and their plans as the app reads them (see fragments.ts for how documents
// use the fragments).

/** A plan with every policy, as both the mirror and the editor read it. */
export const SELLING_PLAN_FIELDS = /* GraphQL */ `
  fragment SellingPlanFields on SellingPlan {
    id
    name
    description
    category
    options
    billingPolicy {
      __typename
      ... on SellingPlanRecurringBillingPolicy {
        interval
        intervalCount
        minCycles
        maxCycles
        anchors { ...AnchorFields }
      }
    }
    deliveryPolicy {
      __typename
      ... on SellingPlanRecurringDeliveryPolicy {
        interval
        intervalCount
        cutoff
        preAnchorBehavior
        anchors { ...AnchorFields }
      }
    }
    pricingPolicies {
      __typename
      ... on SellingPlanFixedPricingPolicy { adjustmentType adjustmentValue { ...PricingValue } }
      ... on SellingPlanRecurringPricingPolicy { afterCycle adjustmentType adjustmentValue { ...PricingValue } }
    }
  }
`

export type PlatformSellingPlan = {
  id: string
  name: string
  description: string | null
  category: string | null
  options: string[]
  billingPolicy: Record<string, unknown>
  deliveryPolicy: Record<string, unknown>
  pricingPolicies: Array<Record<string, unknown>>
}

/**
 * Group fields the mirror keeps, with its plans (10 at most, the platform's limit per group).
 * One selection for the sync pages, the single-group refetch of webhooks, the create and update
 * answers and the editor's detail, so every path writes identical rows.
 */
export const SELLING_PLAN_GROUP_FIELDS = /* GraphQL */ `
  fragment SellingPlanGroupFields on SellingPlanGroup {
    id
    name
    merchantCode
    createdAt
    productsCount { count }
    productVariantsCount { count }
    sellingPlans(first: 10) { nodes { ...SellingPlanFields } }
  }
`

export type PlatformSellingPlanGroup = {
  id: string
  name: string
  merchantCode: string | null
  createdAt: string
  productsCount: { count: number } | null
  productVariantsCount: { count: number } | null
  sellingPlans: { nodes: PlatformSellingPlan[] }
}
