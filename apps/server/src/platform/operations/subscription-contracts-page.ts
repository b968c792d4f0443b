import type { AdminClient } from '../admin-client.ts'
import type { PlatformContract } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrderConnection } from './order-fragments.ts'
import { type Connection, queryRoot } from './requests.ts'

/**
 * Orders asked for with each contract: the newest first (`reverse`), which is all of most
 * contracts (the demo shop: median 7, 90th percentile 17). A contract with more is read on by
 * `SUBSCRIPTION_CONTRACT_ORDERS_PAGE` from the connection's end cursor. Each order costs 6
 * points (itself, its two money bags, their shopMoney and its customer); 20 keeps a page of SYNC_PAGE_SIZES.contracts contracts under the 1,000-point cap.
 */
export const CONTRACT_ORDERS_FIRST = 20

/** The sync's pages of contracts: the contract's mirrored fields plus its newest orders with the cursor to read on. */
export const SUBSCRIPTION_CONTRACTS_PAGE = withFragments(/* GraphQL */ `
  query SubscriptionContractsPage($first: Int!, $after: String, $query: String) {
    subscriptionContracts(first: $first, after: $after, query: $query) {
      nodes {
        ...ContractWithFirstLines
        orders(first: ${CONTRACT_ORDERS_FIRST}, reverse: true) {
          nodes { ...OrderFields }
          pageInfo { hasNextPage endCursor }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`)

/** A contract as the sync pages and the bulk export read it: with its newest orders. */
export type PlatformPagedContract = PlatformContract & { orders: PlatformOrderConnection }

export function fetchSubscriptionContractsPage(
  client: AdminClient,
  variables: { first: number; after?: string | null; query?: string },
) {
  const document = SUBSCRIPTION_CONTRACTS_PAGE
  return queryRoot<Connection<PlatformPagedContract>>(client, document, variables, 'subscriptionContracts')
}
