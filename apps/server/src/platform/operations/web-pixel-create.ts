import type { AdminClient } from '../admin-client.ts'
import { pixelOfPayload, WEB_PIXEL_PAYLOAD, type WebPixel, type WebPixelPayload } from './web-pixel.ts'

/** Activates the app's pixel extension on the shop with its settings (validated by the platform). */
export const WEB_PIXEL_CREATE = /* GraphQL */ `
  mutation WebPixelCreate($webPixel: WebPixelInput!) {
    webPixelCreate(webPixel: $webPixel) {${WEB_PIXEL_PAYLOAD}
    }
  }
`

/** PlatformUserError on userErrors: TAKEN (the app has one already), INVALID_SETTINGS, NO_EXTENSION… */
export async function createWebPixel(
  client: AdminClient,
  settings: Record<string, unknown>,
): Promise<WebPixel> {
  const data = await client.request<{ webPixelCreate: WebPixelPayload | null }>(
    'WebPixelCreate',
    WEB_PIXEL_CREATE,
    {
      webPixel: { settings: JSON.stringify(settings) },
    },
  )
  return pixelOfPayload('webPixelCreate', data.webPixelCreate)
}
