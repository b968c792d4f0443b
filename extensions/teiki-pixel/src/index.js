// Teiki's web pixel (strict sandbox): page views and completed checkouts to the app's ingest
// endpoint, one event per request, as text/plain (no CORS preflight). The event's own id is
// sent so a retried request is stored once; the server dates hits by its clock. On a completed
// checkout it also requests the merchant's 計測タグ (設定 › サンクスページ, the conversionTags
// setting), each a GET with the order's values filled in — what thank-you page scripts did
// before checkout extensibility (ADR 0039).
import { register } from '@shopify/web-pixels-extension'
import { conversionRequests } from '../../../packages/domain/src/settings/conversion-tags.ts'

register(({ analytics, browser, settings }) => {
  const url = settings.ingestUrl
  const key = settings.accountID
  if (!url || !key) return
  const target = `${url}${url.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`

  const send = (event) => {
    const body = JSON.stringify({ events: [event] })
    // sendBeacon survives the page being left (a checkout's thank-you page); fetch otherwise.
    browser.sendBeacon(target, body).then((queued) => {
      if (!queued) fetch(target, { method: 'POST', body, keepalive: true }).catch(() => {})
    })
  }

  analytics.subscribe('page_viewed', (event) => {
    send({
      id: event.id,
      name: 'page_viewed',
      timestamp: event.timestamp,
      clientId: event.clientId,
      url: event.context.document.location.href,
    })
  })

  analytics.subscribe('checkout_completed', (event) => {
    // A tag is an image request to another site: no body, no credentials, the answer unread.
    for (const url of conversionRequests(settings.conversionTags, event.data.checkout))
      fetch(url, { method: 'GET', mode: 'no-cors', credentials: 'omit', keepalive: true }).catch(() => {})
    const order = event.data.checkout.order
    send({
      id: event.id,
      name: 'checkout_completed',
      timestamp: event.timestamp,
      clientId: event.clientId,
      ...(order?.id ? { orderId: String(order.id) } : {}),
    })
  })
})
