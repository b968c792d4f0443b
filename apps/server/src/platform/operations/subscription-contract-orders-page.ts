import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrderConnection } from './order-fragments.ts'

/**
 * The rest of one contract's orders after the page's first CONTRACT_ORDERS_FIRST (same order:
 * newest first). 100 orders: ~400 points requested.
 */
export const SUBSCRIPTION_CONTRACT_ORDERS_PAGE = withFragments(/* GraphQL */ `
  query SubscriptionContractOrdersPage($id: ID!, $first: Int!, $after: String) {
    subscriptionContract(id: $id) {
      orders(first: $first, after: $after, reverse: true) {
        nodes { ...OrderFields }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`)

/** The next page of a contract's orders; null when the platform no longer has the contract. */
export async function fetchSubscriptionContractOrdersPage(
  client: AdminClient,
  variables: { id: string; first: number; after: string | null },
): Promise<PlatformOrderConnection | null> {
  const data = await client.request<{ subscriptionContract: { orders: PlatformOrderConnection } | null }>(
    'SubscriptionContractOrdersPage',
    SUBSCRIPTION_CONTRACT_ORDERS_PAGE,
    variables,
  )
  return data.subscriptionContract?.orders ?? null
}
