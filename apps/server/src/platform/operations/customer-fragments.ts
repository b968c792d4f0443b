// Customers as the mirror keeps them (see fragments.ts for how documents use the fragment).

/**
 * Customer fields the mirror keeps (`customers` table): one selection for the sync pages, the
 * bulk export and the single-customer refetch of webhooks, so every path writes identical rows.
 */
export const CUSTOMER_FIELDS = /* GraphQL */ `
  fragment CustomerFields on Customer {
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
