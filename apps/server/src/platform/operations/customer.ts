import type { AdminClient } from '../admin-client.ts'
import type { PlatformCustomer } from './customers-page.ts'

export const CUSTOMER = /* GraphQL */ `
  query Customer($id: ID!) {
    customer(id: $id) {
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
  }
`

/** One customer as the platform has it now; null when it has none of that id (deleted, or another shop's). */
export async function fetchCustomer(client: AdminClient, id: string): Promise<PlatformCustomer | null> {
  return (await client.request<{ customer: PlatformCustomer | null }>('Customer', CUSTOMER, { id })).customer
}
