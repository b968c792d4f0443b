import type { AdminClient } from '../admin-client.ts'
import { sendPixelMutation, WEB_PIXEL_PAYLOAD } from './web-pixel.ts'

/** Replaces the settings of the app's pixel (validated by the platform as on create). */
export const WEB_PIXEL_UPDATE = /* GraphQL */ `
  mutation WebPixelUpdate($id: ID!, $webPixel: WebPixelInput!) {
    webPixelUpdate(id: $id, webPixel: $webPixel) {${WEB_PIXEL_PAYLOAD}
    }
  }
`

/** PlatformUserError on userErrors (NOT_FOUND, INVALID_SETTINGS…). */
export function updateWebPixel(client: AdminClient, id: string, settings: Record<string, unknown>) {
  return sendPixelMutation(client, WEB_PIXEL_UPDATE, { id }, settings)
}
