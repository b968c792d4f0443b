import type { AdminClient } from '../admin-client.ts'

export const CUSTOMERS_PAGE = /* GraphQL */ `
  query CustomersPage($first: Int!, $after: String, $query: String) {
    customers(first: $first, after: $after, query: $query) {
      nodes {
        id
        firstName
        lastName
        displayName
        email
        phone
        tags
        createdAt
        updatedAt
        defaultAddress { address1 address2 city province provinceCode zip countryCodeV2 phone firstName lastName }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`

export type PlatformCustomer = {
  id: string
  firstName: string | null
  lastName: string | null
  displayName: string
  email: string | null
  phone: string | null
  /** Absent in rows built by hand (tests, checkout): the mirror then keeps what it has. */
  tags?: string[]
  createdAt: string
  updatedAt: string
  defaultAddress: Record<string, string | null> | null
}

type CustomersPage = {
  customers: { nodes: PlatformCustomer[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }
}

export async function fetchCustomersPage(
  client: AdminClient,
  variables: { first: number; after?: string | null; query?: string },
): Promise<CustomersPage['customers']> {
  return (await client.request<CustomersPage>('CustomersPage', CUSTOMERS_PAGE, variables)).customers
}
