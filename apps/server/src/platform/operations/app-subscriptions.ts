import type { AdminClient } from '../admin-client.ts'

/** The fields of an app subscription the app keeps as its plan record (platform/app-plan-record.ts). */
export const APP_SUBSCRIPTION_FIELDS = /* GraphQL */ `
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
        ... on AppRecurringPricing { price { amount currencyCode } }
      }
    }
  }
`

export const APP_SUBSCRIPTIONS = /* GraphQL */ `
  query AppSubscriptions {
    currentAppInstallation {
      activeSubscriptions { ${APP_SUBSCRIPTION_FIELDS} }
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
  lineItems: Array<{
    plan: { pricingDetails: { __typename: string; price?: { amount: string; currencyCode: string } } }
  }>
}

/** The installation's active app subscriptions (the plan the merchant approved). */
export async function fetchActiveAppSubscriptions(client: AdminClient): Promise<ActiveAppSubscription[]> {
  const data = await client.request<{
    currentAppInstallation: { activeSubscriptions: ActiveAppSubscription[] }
  }>('AppSubscriptions', APP_SUBSCRIPTIONS)
  return data.currentAppInstallation.activeSubscriptions
}
