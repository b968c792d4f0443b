import type { AdminClient } from '../admin-client.ts'

/** The plans of a group with every policy (10 at most, the platform's limit per group), as both the mirror and the editor read them. */
export const SELLING_PLANS_SELECTION = /* GraphQL */ `
        sellingPlans(first: 10) {
          nodes {
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
                anchors { day month type cutoffDay }
              }
            }
            deliveryPolicy {
              __typename
              ... on SellingPlanRecurringDeliveryPolicy {
                interval
                intervalCount
                cutoff
                preAnchorBehavior
                anchors { day month type cutoffDay }
              }
            }
            pricingPolicies {
              __typename
              ... on SellingPlanFixedPricingPolicy { adjustmentType adjustmentValue { ...PricingValue } }
              ... on SellingPlanRecurringPricingPolicy { afterCycle adjustmentType adjustmentValue { ...PricingValue } }
            }
          }
        }
`

/**
 * Group fields the mirror keeps. One selection (and its fragment) for the sync pages and the
 * single-group refetch of webhooks, so both write identical rows.
 */
export const SELLING_PLAN_GROUP_SELECTION = /* GraphQL */ `{
        id
        name
        merchantCode
        createdAt
        productsCount { count }
        productVariantsCount { count }
        ${SELLING_PLANS_SELECTION}
}`

export const PRICING_VALUE_FRAGMENT = /* GraphQL */ `fragment PricingValue on SellingPlanPricingPolicyAdjustmentValue {
    __typename
    ... on SellingPlanPricingPolicyPercentageValue { percentage }
    ... on MoneyV2 { amount currencyCode }
  }`

export const SELLING_PLAN_GROUPS_PAGE = /* GraphQL */ `
  query SellingPlanGroupsPage($first: Int!, $after: String) {
    sellingPlanGroups(first: $first, after: $after) {
      nodes ${SELLING_PLAN_GROUP_SELECTION}
      pageInfo { hasNextPage endCursor }
    }
  }

  ${PRICING_VALUE_FRAGMENT}
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

export type PlatformSellingPlanGroup = {
  id: string
  name: string
  merchantCode: string | null
  createdAt: string
  productsCount: { count: number } | null
  productVariantsCount: { count: number } | null
  sellingPlans: { nodes: PlatformSellingPlan[] }
}

type Page = {
  sellingPlanGroups: {
    nodes: PlatformSellingPlanGroup[]
    pageInfo: { hasNextPage: boolean; endCursor: string | null }
  }
}

export async function fetchSellingPlanGroupsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null },
): Promise<Page['sellingPlanGroups']> {
  return (await client.request<Page>('SellingPlanGroupsPage', SELLING_PLAN_GROUPS_PAGE, variables))
    .sellingPlanGroups
}
