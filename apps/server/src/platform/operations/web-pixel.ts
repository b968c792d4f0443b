import type { AdminClient } from '../admin-client.ts'
import { PlatformQueryError } from '../errors.ts'
import { mutateReturning } from './requests.ts'

/** The app's web pixel on the shop (one per app per shop): its id and settings. */
export const WEB_PIXEL = /* GraphQL */ `
  query WebPixel {
    webPixel {
      id
      settings
    }
  }
`

export type WebPixel = { id: string; settings: Record<string, unknown> }

/** What webPixelCreate and webPixelUpdate answer (their selection is the same). */
export const WEB_PIXEL_PAYLOAD = `
      webPixel {
        id
        settings
      }
      userErrors {
        code
        field
        message
      }`

/** Sends webPixelCreate or webPixelUpdate with the settings: the pixel as the platform saved it. */
export async function sendPixelMutation(
  client: AdminClient,
  document: string,
  variables: Record<string, unknown>,
  settings: Record<string, unknown>,
): Promise<WebPixel> {
  const webPixel = { settings: JSON.stringify(settings) }
  const saved = await mutateReturning<{ id: string; settings: unknown }>(
    client,
    document,
    { ...variables, webPixel },
    'webPixel',
  )
  return { id: saved.id, settings: pixelSettingsOf(saved.settings) }
}

/**
 * The platform answers `WebPixel.settings` as a JSON-encoded string (an object is taken too);
 * anything unreadable reads as no settings, which differ from any wanted ones.
 */
export function pixelSettingsOf(value: unknown): Record<string, unknown> {
  let parsed = value
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value)
    } catch {
      return {}
    }
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {}
}

/** "No web pixel was found for this app.": the platform's answer (a top-level error) before one is created. */
const isNoPixel = (error: unknown) =>
  error instanceof PlatformQueryError &&
  Array.isArray(error.errors) &&
  error.errors.some((e: { message?: unknown }) => /no web pixel was found/i.test(String(e?.message ?? '')))

/** The app's pixel, or null when the shop has none yet. Other errors (access denied) are thrown. */
export async function fetchWebPixel(client: AdminClient): Promise<WebPixel | null> {
  try {
    const data = await client.request<{ webPixel: { id: string; settings: unknown } | null }>(
      'WebPixel',
      WEB_PIXEL,
    )
    return data.webPixel ? { id: data.webPixel.id, settings: pixelSettingsOf(data.webPixel.settings) } : null
  } catch (error) {
    if (isNoPixel(error)) return null
    throw error
  }
}
