import type { AdminClient } from '../admin-client.ts'
import type { PlatformSellingPlanGroup } from './selling-plan-groups-page.ts'

/** One selling plan group, for its create/update webhooks; same fields as the sync page's nodes. */
export const SELLING_PLAN_GROUP = /* GraphQL */ `
  query SellingPlanGroup($id: ID!) {
    sellingPlanGroup(id: $id) {
      id
      name
      merchantCode
      createdAt
      productsCount { count }
      productVariantsCount { count }
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
    }
  }

  fragment PricingValue on SellingPlanPricingPolicyAdjustmentValue {
    __typename
    ... on SellingPlanPricingPolicyPercentageValue { percentage }
    ... on MoneyV2 { amount currencyCode }
  }
`

/** The group, or null when the platform no longer has it. */
export async function fetchSellingPlanGroup(
  client: AdminClient,
  id: string,
): Promise<PlatformSellingPlanGroup | null> {
  const data = await client.request<{ sellingPlanGroup: PlatformSellingPlanGroup | null }>(
    'SellingPlanGroup',
    SELLING_PLAN_GROUP,
    { id },
  )
  return data.sellingPlanGroup
}
