import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import { pixelSettingsOf, type WebPixel } from './web-pixel.ts'

/** Activates the app's pixel extension on the shop with its settings (validated by the platform). */
export const WEB_PIXEL_CREATE = /* GraphQL */ `
  mutation WebPixelCreate($webPixel: WebPixelInput!) {
    webPixelCreate(webPixel: $webPixel) {
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

/** PlatformUserError on userErrors: TAKEN (the app has one already), INVALID_SETTINGS, NO_EXTENSION… */
export async function createWebPixel(
  client: AdminClient,
  settings: Record<string, unknown>,
): Promise<WebPixel> {
  const data = await client.request<{ webPixelCreate: Payload | null }>('WebPixelCreate', WEB_PIXEL_CREATE, {
    webPixel: { settings: JSON.stringify(settings) },
  })
  const { webPixel } = assertNoUserErrors('webPixelCreate', data.webPixelCreate)
  if (!webPixel) throw new Error('webPixelCreate answered neither a pixel nor userErrors')
  return { id: webPixel.id, settings: pixelSettingsOf(webPixel.settings) }
}
