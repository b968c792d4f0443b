import type { AdminClient } from '../admin-client.ts'
import { mutate } from './requests.ts'

export const DELIVERY_PROFILE_UPDATE = /* GraphQL */ `
  mutation DeliveryProfileUpdate($id: ID!, $profile: DeliveryProfileInput!) {
    deliveryProfileUpdate(id: $id, profile: $profile) {
      profile { id }
      userErrors { field message }
    }
  }
`

/** Updates a delivery profile; PlatformUserError when the platform refuses. */
export async function updateDeliveryProfile(
  client: AdminClient,
  id: string,
  profile: Record<string, unknown>,
) {
  await mutate(client, DELIVERY_PROFILE_UPDATE, { id, profile })
}
