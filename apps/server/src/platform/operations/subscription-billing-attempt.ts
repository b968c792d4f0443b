import type { AdminClient } from '../admin-client.ts'
import type { PlatformBillingAttempt } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'

/**
 * One billing attempt with its order, for the billing-attempt webhooks: the payload has no
 * creation time and no order total. The attempt's contract is not asked (a point per read):
 * the engine's cycle row knows it, and the signed body names it.
 */
export const SUBSCRIPTION_BILLING_ATTEMPT = withFragments(/* GraphQL */ `
  query SubscriptionBillingAttempt($id: ID!) {
    subscriptionBillingAttempt(id: $id) { ...BillingAttemptFields }
  }
`)

/** The attempt, or null when the platform does not know it. */
export function fetchSubscriptionBillingAttempt(client: AdminClient, id: string) {
  const path = ['subscriptionBillingAttempt']
  return queryPath<PlatformBillingAttempt>(client, SUBSCRIPTION_BILLING_ATTEMPT, { id }, path)
}
