import { createHmac } from 'node:crypto'

/** X-Shopify-Hmac-SHA256: base64 HMAC-SHA256 of the raw body, keyed with the app's client secret. */
export const signWebhook = (body: string, secret: string): string =>
  createHmac('sha256', secret).update(body, 'utf8').digest('base64')
