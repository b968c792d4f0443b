import type { AdminClient } from '../admin-client.ts'
import type { ActiveAppSubscription } from './app-subscription-fragments.ts'
import { withFragments } from './fragments.ts'

export const APP_SUBSCRIPTIONS = withFragments(/* GraphQL */ `
  query AppSubscriptions {
    currentAppInstallation {
      activeSubscriptions { ...AppSubscriptionFields }
    }
  }
`)

/** The installation's active app subscriptions (the plan the merchant approved). */
export async function fetchActiveAppSubscriptions(client: AdminClient): Promise<ActiveAppSubscription[]> {
  const data = await client.request<{
    currentAppInstallation: { activeSubscriptions: ActiveAppSubscription[] }
  }>('AppSubscriptions', APP_SUBSCRIPTIONS)
  return data.currentAppInstallation.activeSubscriptions
}
