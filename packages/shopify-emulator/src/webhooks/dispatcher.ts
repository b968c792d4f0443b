import { randomUUID } from 'node:crypto'
import type { Faults } from '../faults.ts'
import { API_VERSION } from '../http.ts'
import type { Tasks } from '../tasks.ts'
import { signWebhook } from './sign.ts'

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped'

/** One event for one endpoint, as tests inspect it (`emulator.webhooks.deliveries`). */
export type Delivery = {
  webhookId: string
  /** X-Shopify-Event-Id: the same for every delivery of one event. */
  eventId: string
  shop: string
  topic: string
  url: string
  body: string
  triggeredAt: string
  attempts: number
  status: DeliveryStatus
  /** HTTP status of the last attempt; null after a network error or before the first attempt. */
  lastStatus: number | null
  duplicated: boolean
}

export type DispatcherOptions = {
  apiSecret: string
  faults: Faults
  tasks: Tasks
  /** First retry waits this long, then doubles (platform: 8 tries over ~4 hours; tests use ms). */
  retryBaseMs: number
  maxAttempts: number
  /** A held (reordered) event goes out at the latest after this long, even if no later event came. */
  reorderHoldMs: number
}

/**
 * At-least-once delivery with the platform's headers and HMAC; non-2xx or a network error is
 * retried with exponential back-off. Fault knobs drop, duplicate or reorder events.
 */
export class WebhookDispatcher {
  readonly deliveries: Delivery[] = []
  private readonly held = new Map<string, Delivery>()

  constructor(private readonly opts: DispatcherOptions) {}

  emit(
    shop: string,
    topic: string,
    payload: Record<string, unknown>,
    urls: readonly string[],
    eventId: string = randomUUID(),
  ): void {
    const body = JSON.stringify(payload)
    const triggeredAt = new Date().toISOString()
    for (const url of new Set(urls)) {
      const d: Delivery = {
        webhookId: randomUUID(),
        eventId,
        shop,
        topic,
        url,
        body,
        triggeredAt,
        attempts: 0,
        status: 'pending',
        lastStatus: null,
        duplicated: false,
      }
      this.deliveries.push(d)
      this.route(d)
    }
  }

  private route(d: Delivery): void {
    const { faults } = this.opts
    const s = faults.settings
    if (faults.roll(s.drop)) {
      d.status = 'dropped'
      return
    }
    d.duplicated = faults.roll(s.duplicate)
    const heldBefore = this.held.get(d.shop)
    if (!heldBefore && faults.roll(s.reorder)) {
      this.held.set(d.shop, d)
      this.opts.tasks.later(this.opts.reorderHoldMs, () => this.release(d))
      return
    }
    const first = this.start(d)
    // The held event goes out once this later one has arrived: the receiver sees them out of order.
    if (heldBefore) this.opts.tasks.track(first.then(() => this.release(heldBefore)))
  }

  private release(d: Delivery): void {
    if (this.held.get(d.shop) !== d) return
    this.held.delete(d.shop)
    this.start(d)
  }

  /** Sends the first attempt; resolves when it has been answered. */
  private start(d: Delivery): Promise<void> {
    const first = this.attempt(d)
    this.opts.tasks.track(first)
    if (d.duplicated) this.opts.tasks.track(this.post(d).then(() => undefined))
    return first
  }

  private async attempt(d: Delivery): Promise<void> {
    d.attempts++
    const status = await this.post(d)
    d.lastStatus = status
    if (status !== null && status >= 200 && status < 300) {
      d.status = 'delivered'
      return
    }
    if (d.attempts >= this.opts.maxAttempts) {
      d.status = 'failed'
      return
    }
    this.opts.tasks.later(this.opts.retryBaseMs * 2 ** (d.attempts - 1), () => this.attempt(d))
  }

  /** One POST; the HTTP status, or null for a network error or timeout. */
  private async post(d: Delivery): Promise<number | null> {
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': d.topic,
          'x-shopify-shop-domain': d.shop,
          'x-shopify-webhook-id': d.webhookId,
          'x-shopify-event-id': d.eventId,
          'x-shopify-api-version': API_VERSION,
          'x-shopify-triggered-at': d.triggeredAt,
          'x-shopify-hmac-sha256': signWebhook(d.body, this.opts.apiSecret),
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      })
      await res.arrayBuffer().catch(() => undefined)
      return res.status
    } catch {
      return null
    }
  }
}
