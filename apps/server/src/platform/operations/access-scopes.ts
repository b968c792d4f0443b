import type { AdminClient } from '../admin-client.ts'

/** The scopes the merchant has granted the app now (one point). */
export const ACCESS_SCOPES = /* GraphQL */ `
  query AccessScopes {
    currentAppInstallation { accessScopes { handle } }
  }
`

export async function fetchAccessScopes(client: AdminClient): Promise<string[]> {
  const data = await client.request<{ currentAppInstallation: { accessScopes: Array<{ handle: string }> } }>(
    'AccessScopes',
    ACCESS_SCOPES,
  )
  return data.currentAppInstallation.accessScopes.map((s) => s.handle)
}
