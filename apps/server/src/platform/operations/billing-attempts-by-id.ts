import type { AdminClient } from '../admin-client.ts'
import type { PlatformBillingAttempt } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'

/**
 * Several billing attempts in one call (`nodes`), for the billing engine's polling fallback:
 * one request per batch instead of one per attempt keeps the bucket for the charges themselves.
 */
export const BILLING_ATTEMPTS_BY_ID = withFragments(/* GraphQL */ `
  query BillingAttemptsById($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on SubscriptionBillingAttempt { ...BillingAttemptFields }
    }
  }
`)

/** Up to 50 ids per call; unknown ids are left out of the answer. */
export const ATTEMPTS_PER_POLL = 50

export async function fetchBillingAttempts(
  client: AdminClient,
  ids: string[],
): Promise<PlatformBillingAttempt[]> {
  const found: PlatformBillingAttempt[] = []
  for (let i = 0; i < ids.length; i += ATTEMPTS_PER_POLL) {
    const data = await client.request<{ nodes: Array<PlatformBillingAttempt | null> }>(
      'BillingAttemptsById',
      BILLING_ATTEMPTS_BY_ID,
      { ids: ids.slice(i, i + ATTEMPTS_PER_POLL) },
    )
    for (const node of data.nodes) if (node?.id) found.push(node)
  }
  return found
}
