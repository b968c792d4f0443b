import type { AdminClient } from '../admin-client.ts'
import { assertNoUserErrors } from '../admin-client.ts'

export const DELIVERY_PROFILE_CREATE = /* GraphQL */ `
  mutation DeliveryProfileCreate($profile: DeliveryProfileInput!) {
    deliveryProfileCreate(profile: $profile) {
      profile { id }
      userErrors { field message }
    }
  }
`

/** Creates a delivery profile; its id. PlatformUserError when the platform refuses the input. */
export async function createDeliveryProfile(
  client: AdminClient,
  profile: Record<string, unknown>,
): Promise<string> {
  const data = await client.request<{
    deliveryProfileCreate: {
      profile: { id: string } | null
      userErrors: Array<{ field: string[] | null; message: string }>
    } | null
  }>('DeliveryProfileCreate', DELIVERY_PROFILE_CREATE, { profile })
  const payload = assertNoUserErrors('deliveryProfileCreate', data.deliveryProfileCreate)
  if (!payload.profile) throw new Error('deliveryProfileCreate answered no profile')
  return payload.profile.id
}
