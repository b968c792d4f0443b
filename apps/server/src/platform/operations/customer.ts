import type { AdminClient } from '../admin-client.ts'
import type { PlatformCustomer } from './customer-fragments.ts'
import { withFragments } from './fragments.ts'

export const CUSTOMER = withFragments(/* GraphQL */ `
  query Customer($id: ID!) {
    customer(id: $id) { ...CustomerFields }
  }
`)

/** One customer as the platform has it now; null when it has none of that id (deleted, or another shop's). */
export async function fetchCustomer(client: AdminClient, id: string): Promise<PlatformCustomer | null> {
  return (await client.request<{ customer: PlatformCustomer | null }>('Customer', CUSTOMER, { id })).customer
}
