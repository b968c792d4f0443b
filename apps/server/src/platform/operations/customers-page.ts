import type { AdminClient } from '../admin-client.ts'
import type { PlatformCustomer } from './customer-fragments.ts'
import { withFragments } from './fragments.ts'

export const CUSTOMERS_PAGE = withFragments(/* GraphQL */ `
  query CustomersPage($first: Int!, $after: String, $query: String) {
    customers(first: $first, after: $after, query: $query) {
      nodes { ...CustomerFields }
      pageInfo { hasNextPage endCursor }
    }
  }
`)

type CustomersPage = {
  customers: { nodes: PlatformCustomer[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
}

export async function fetchCustomersPage(
  client: AdminClient,
  variables: { first: number; after?: string | null; query?: string },
): Promise<CustomersPage['customers']> {
  return (await client.request<CustomersPage>('CustomersPage', CUSTOMERS_PAGE, variables)).customers
}
