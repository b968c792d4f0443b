import type { PlatformMoney } from './shared-fragments.ts'

// The app's own subscription (its plan) as the app reads it (see fragments.ts).

/** The fields of an app subscription the app keeps as its plan record (platform/app-plan-record.ts). */
export const APP_SUBSCRIPTION_FIELDS = /* GraphQL */ `
  fragment AppSubscriptionFields on AppSubscription {
    id
    name
    status
    test
    trialDays
    currentPeriodEnd
    lineItems {
      plan {
        pricingDetails {
          __typename
          ... on AppRecurringPricing { price { ...MoneyFields } }
        }
      }
    }
  }
`

export type ActiveAppSubscription = {
  id: string
  name: string
  status: string
  test: boolean
  trialDays: number
  currentPeriodEnd: string | null
  lineItems: Array<{ plan: { pricingDetails: { __typename: string; price?: PlatformMoney } } }>
}
