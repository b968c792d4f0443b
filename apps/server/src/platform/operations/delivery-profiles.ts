import type { AdminClient } from '../admin-client.ts'

/** The shop's delivery profiles (a shop has a few), to find the app's free-shipping profile. */
export const DELIVERY_PROFILES = /* GraphQL */ `
  query DeliveryProfiles($first: Int!, $after: String) {
    deliveryProfiles(first: $first, after: $after) {
      nodes { id name default }
      pageInfo { hasNextPage endCursor }
    }
  }
`

export type PlatformDeliveryProfile = { id: string; name: string; default: boolean }

/** Every delivery profile of the shop, 25 a page. */
export async function fetchDeliveryProfiles(client: AdminClient): Promise<PlatformDeliveryProfile[]> {
  const out: PlatformDeliveryProfile[] = []
  let after: string | null = null
  for (;;) {
    const data: {
      deliveryProfiles: {
        nodes: PlatformDeliveryProfile[]
        pageInfo: { hasNextPage: boolean; endCursor: string | null }
      }
    } = await client.request('DeliveryProfiles', DELIVERY_PROFILES, { first: 25, after })
    out.push(...data.deliveryProfiles.nodes)
    if (!data.deliveryProfiles.pageInfo.hasNextPage) return out
    after = data.deliveryProfiles.pageInfo.endCursor
  }
}
