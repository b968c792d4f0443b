import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * X-Shopify-Hmac-SHA256 is the base64 HMAC-SHA256 of the raw body keyed with the app's
 * client secret. Compared in constant time on the decoded bytes; a missing or malformed
 * header is a mismatch.
 */
export function verifyWebhookHmac(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false
  const expected = createHmac('sha256', secret).update(rawBody).digest()
  const given = Buffer.from(header, 'base64')
  return given.length === expected.length && timingSafeEqual(given, expected)
}
