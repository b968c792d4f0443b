import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const ORDER_UPDATE = /* GraphQL */ `
  mutation OrderUpdate($input: OrderInput!) {
    orderUpdate(input: $input) {
      order { id customAttributes { key value } }
      userErrors { field message }
    }
  }
`

export type OrderAttribute = { key: string; value: string }

type OrderUpdatePayload = {
  order: { id: string; customAttributes: OrderAttribute[] } | null
  userErrors: Array<{ field: string[] | null; message: string }>
}

/**
 * Sets an order's note attributes (the whole list: the platform replaces it). Needs
 * write_orders. PlatformUserError when refused; answers the list the order holds after it.
 */
export async function setOrderAttributes(
  client: AdminClient,
  orderId: string,
  customAttributes: OrderAttribute[],
): Promise<OrderAttribute[]> {
  const data = await client.request<{ orderUpdate: OrderUpdatePayload | null }>('OrderUpdate', ORDER_UPDATE, {
    input: { id: orderId, customAttributes },
  })
  assertNoUserErrors('orderUpdate', data.orderUpdate)
  const order = data.orderUpdate?.order
  if (!order || order.id !== orderId) throw new Error(`orderUpdate answer without order ${orderId}`)
  return order.customAttributes
}
