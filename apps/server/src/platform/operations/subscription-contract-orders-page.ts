import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrderConnection } from './order-fragments.ts'
import { type PageOf, queryPath } from './requests.ts'

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
export function fetchSubscriptionContractOrdersPage(client: AdminClient, page: PageOf) {
  const path = ['subscriptionContract', 'orders']
  return queryPath<PlatformOrderConnection>(client, SUBSCRIPTION_CONTRACT_ORDERS_PAGE, page, path)
}
