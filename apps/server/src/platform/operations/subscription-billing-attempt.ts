import type { AdminClient } from '../admin-client.ts'
import type { PlatformBillingAttempt } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'

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
export async function fetchSubscriptionBillingAttempt(
  client: AdminClient,
  id: string,
): Promise<PlatformBillingAttempt | null> {
  const data = await client.request<{ subscriptionBillingAttempt: PlatformBillingAttempt | null }>(
    'SubscriptionBillingAttempt',
    SUBSCRIPTION_BILLING_ATTEMPT,
    { id },
  )
  return data.subscriptionBillingAttempt
}
