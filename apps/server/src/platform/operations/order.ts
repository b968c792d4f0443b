import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrder } from './order-fragments.ts'

/**
 * One order, for orders/create: the webhook's body says which order, the platform says what it
 * is. Read with the delivering shop's token, an order of another shop is simply not found.
 * Same fields as the orders read with a contract in the sync.
 */
export const ORDER = withFragments(/* GraphQL */ `
  query Order($id: ID!) {
    order(id: $id) { ...OrderFields }
  }
`)

/** The order, or null when this shop's platform does not know it. */
export async function fetchOrder(client: AdminClient, id: string): Promise<PlatformOrder | null> {
  const data = await client.request<{ order: PlatformOrder | null }>('Order', ORDER, { id })
  return data.order
}
