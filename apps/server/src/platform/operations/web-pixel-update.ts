import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import { pixelSettingsOf, type WebPixel } from './web-pixel.ts'

/** Replaces the settings of the app's pixel (validated by the platform as on create). */
export const WEB_PIXEL_UPDATE = /* GraphQL */ `
  mutation WebPixelUpdate($id: ID!, $webPixel: WebPixelInput!) {
    webPixelUpdate(id: $id, webPixel: $webPixel) {
      webPixel {
        id
        settings
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`

type Payload = {
  webPixel: { id: string; settings: unknown } | null
  userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
}

/** PlatformUserError on userErrors (NOT_FOUND, INVALID_SETTINGS…). */
export async function updateWebPixel(
  client: AdminClient,
  id: string,
  settings: Record<string, unknown>,
): Promise<WebPixel> {
  const data = await client.request<{ webPixelUpdate: Payload | null }>('WebPixelUpdate', WEB_PIXEL_UPDATE, {
    id,
    webPixel: { settings: JSON.stringify(settings) },
  })
  const { webPixel } = assertNoUserErrors('webPixelUpdate', data.webPixelUpdate)
  if (!webPixel) throw new Error('webPixelUpdate answered neither a pixel nor userErrors')
  return { id: webPixel.id, settings: pixelSettingsOf(webPixel.settings) }
}
