import type { AdminClient } from '../admin-client.ts'

/**
 * The attempt fields the app reads: here and in the poll's batch query
 * (billing-attempts-by-id.ts). `ready`, `errorCode`, `errorMessage`, `nextActionUrl` and
 * `order` are deprecated in 2025-04 in favour of `state`, but still served, and they are what
 * the emulator implements; platform/attempt-outcome.ts is the one reader of them.
 */
export const BILLING_ATTEMPT_FIELDS = /* GraphQL */ `
      id
      idempotencyKey
      createdAt
      completedAt
      ready
      errorCode
      errorMessage
      nextActionUrl
      order {
        id
        name
        createdAt
        cancelledAt
        test
        totalPriceSet { shopMoney { amount currencyCode } }
      }`

/**
 * One billing attempt with its order, for the billing-attempt webhooks: the payload has no
 * creation time and no order total. The attempt's contract is not asked (a point per read):
 * the engine's cycle row knows it, and the signed body names it.
 */
export const SUBSCRIPTION_BILLING_ATTEMPT = /* GraphQL */ `
  query SubscriptionBillingAttempt($id: ID!) {
    subscriptionBillingAttempt(id: $id) {${BILLING_ATTEMPT_FIELDS}
    }
  }
`

export type PlatformBillingOrder = {
  id: string
  name: string
  createdAt: string
  cancelledAt: string | null
  test: boolean
  /** Not asked (a point per attempt read): the mirror takes the customer from the contract. */
  customer?: { id: string } | null
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } }
}

export type PlatformBillingAttempt = {
  id: string
  idempotencyKey: string
  createdAt: string
  completedAt: string | null
  ready: boolean
  errorCode: string | null
  errorMessage: string | null
  /** Where the customer completes 3-D Secure when the issuer challenged the charge. */
  nextActionUrl: string | null
  order: PlatformBillingOrder | null
}

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
