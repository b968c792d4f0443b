import type { AdminClient } from '../admin-client.ts'

/** The app's installation on the shop: the owner of its app-data metafields. */
export const CURRENT_APP_INSTALLATION = /* GraphQL */ `
  query CurrentAppInstallation {
    currentAppInstallation { id }
  }
`

export async function fetchAppInstallationId(client: AdminClient): Promise<string> {
  const data = await client.request<{ currentAppInstallation: { id: string } }>(
    'CurrentAppInstallation',
    CURRENT_APP_INSTALLATION,
  )
  return data.currentAppInstallation.id
}
