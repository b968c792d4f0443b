import type { AdminClient } from '../admin-client.ts'
import { sendPixelMutation, WEB_PIXEL_PAYLOAD } from './web-pixel.ts'

/** Activates the app's pixel extension on the shop with its settings (validated by the platform). */
export const WEB_PIXEL_CREATE = /* GraphQL */ `
  mutation WebPixelCreate($webPixel: WebPixelInput!) {
    webPixelCreate(webPixel: $webPixel) {${WEB_PIXEL_PAYLOAD}
    }
  }
`

/** PlatformUserError on userErrors: TAKEN (the app has one already), INVALID_SETTINGS, NO_EXTENSION… */
export function createWebPixel(client: AdminClient, settings: Record<string, unknown>) {
  return sendPixelMutation(client, WEB_PIXEL_CREATE, {}, settings)
}
