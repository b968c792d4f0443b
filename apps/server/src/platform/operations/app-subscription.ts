import type { AdminClient } from '../admin-client.ts'
import type { ActiveAppSubscription } from './app-subscription-fragments.ts'
import { withFragments } from './fragments.ts'

export const APP_SUBSCRIPTION = withFragments(/* GraphQL */ `
  query AppSubscription($id: ID!) {
    node(id: $id) {
      __typename
      ... on AppSubscription { ...AppSubscriptionFields }
    }
  }
`)

/**
 * One app subscription of this app and shop, in any status (a frozen or cancelled plan is not
 * among `activeSubscriptions`); null when the platform does not know it for this token.
 */
export async function fetchAppSubscription(
  client: AdminClient,
  gid: string,
): Promise<ActiveAppSubscription | null> {
  const data = await client.request<{ node: (ActiveAppSubscription & { __typename: string }) | null }>(
    'AppSubscription',
    APP_SUBSCRIPTION,
    { id: gid },
  )
  if (data.node?.__typename !== 'AppSubscription') return null
  const { __typename: _, ...subscription } = data.node
  return subscription
}
