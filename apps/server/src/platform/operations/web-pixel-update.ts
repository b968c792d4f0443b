import type { AdminClient } from '../admin-client.ts'
import { pixelOfPayload, WEB_PIXEL_PAYLOAD, type WebPixel, type WebPixelPayload } from './web-pixel.ts'

/** Replaces the settings of the app's pixel (validated by the platform as on create). */
export const WEB_PIXEL_UPDATE = /* GraphQL */ `
  mutation WebPixelUpdate($id: ID!, $webPixel: WebPixelInput!) {
    webPixelUpdate(id: $id, webPixel: $webPixel) {${WEB_PIXEL_PAYLOAD}
    }
  }
`

/** PlatformUserError on userErrors (NOT_FOUND, INVALID_SETTINGS…). */
export async function updateWebPixel(
  client: AdminClient,
  id: string,
  settings: Record<string, unknown>,
): Promise<WebPixel> {
  const data = await client.request<{ webPixelUpdate: WebPixelPayload | null }>(
    'WebPixelUpdate',
    WEB_PIXEL_UPDATE,
    {
      id,
      webPixel: { settings: JSON.stringify(settings) },
    },
  )
  return pixelOfPayload('webPixelUpdate', data.webPixelUpdate)
}
