import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrderConnection } from './order-fragments.ts'

/**
 * Orders changed since the last sync (`updated_at:>…`), for incremental syncs: an order
 * cancelled later changes neither its contract nor sends a webhook the app handles, so the
 * mirror learns of it here. Orders carry no contract link in this API subset (LineItem.contract
 * is not served), so only orders the mirror already holds are refreshed from this. 100 orders:
 * ~400 points requested.
 */
export const UPDATED_ORDERS_PAGE = withFragments(/* GraphQL */ `
  query UpdatedOrdersPage($first: Int!, $after: String, $query: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes { ...OrderFields }
      pageInfo { hasNextPage endCursor }
    }
  }
`)

export async function fetchUpdatedOrdersPage(
  client: AdminClient,
  variables: { first: number; after: string | null; query: string },
): Promise<PlatformOrderConnection> {
  return (
    await client.request<{ orders: PlatformOrderConnection }>(
      'UpdatedOrdersPage',
      UPDATED_ORDERS_PAGE,
      variables,
    )
  ).orders
}
