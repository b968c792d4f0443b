import type { AdminClient } from '../admin-client.ts'

/** The shop's active locations: where a new delivery profile ships from. */
export const LOCATIONS = /* GraphQL */ `
  query Locations($first: Int!) {
    locations(first: $first) { nodes { id isActive } }
  }
`

/** Ids of the shop's active locations (the first 50). */
export async function fetchActiveLocationIds(client: AdminClient): Promise<string[]> {
  const data = await client.request<{ locations: { nodes: Array<{ id: string; isActive: boolean }> } }>(
    'Locations',
    LOCATIONS,
    { first: 50 },
  )
  return data.locations.nodes.filter((l) => l.isActive).map((l) => l.id)
}
