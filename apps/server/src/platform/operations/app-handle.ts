import type { AdminClient } from '../admin-client.ts'

export const APP_HANDLE = /* GraphQL */ `
  query AppHandle {
    currentAppInstallation { app { handle } }
  }
`

/** The app's handle in the admin (`admin.shopify.com/store/<store>/apps/<handle>`); null if it has none. */
export async function fetchAppHandle(client: AdminClient): Promise<string | null> {
  const data = await client.request<{ currentAppInstallation: { app: { handle: string | null } } }>(
    'AppHandle',
    APP_HANDLE,
  )
  return data.currentAppInstallation.app.handle
}
