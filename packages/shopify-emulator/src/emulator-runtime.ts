import { randomUUID } from 'node:crypto'
import { mintCheckoutToken } from './auth/session-token.ts'
import { type BillingDelay, billingDelaySampler } from './billing-delay.ts'
import { DEFAULT_CHECKOUT_UI_EXTENSION_DIR, loadCheckoutUiExtension } from './checkout-ui-extension.ts'
import type { Runtime } from './context.ts'
import type { Faults } from './faults.ts'
import { DEFAULT_FUNCTION_EXTENSION_DIRS, loadFunctionExtension } from './function-extension.ts'
import type { ShopState } from './records.ts'
import { appProxySignature, loadAppProxyConfig } from './storefront/app-proxy.ts'
import { Tasks } from './tasks.ts'
import { loadPixelExtension } from './web-pixel-extension.ts'
import { WebhookDispatcher } from './webhooks/dispatcher.ts'
import { COMPLIANCE_TOPICS } from './webhooks/topics.ts'

export type WebhookOptions = {
  /**
   * The app's webhook endpoint. Subscriptions made with `webhookSubscriptionCreate` point here (the
   * 2025-04 input has no URL), and `topics` are subscribed for every shop, like shopify.app.toml.
   */
  callbackUrl?: string
  topics?: string[]
  /** First retry delay, doubled each time (default 1,000 ms; tests use a few ms). */
  retryBaseMs?: number
  /** Tries per event before giving up (default 8). */
  maxAttempts?: number
  /** Longest time a reordered event is held back (default 200 ms). */
  reorderHoldMs?: number
}

export type RuntimeOptions = {
  /** The app's client id (its handle and title are the Teiki app's, as shopify.app.toml names it). */
  apiKey?: string
  faults: Faults
  apiSecret: string
  webhooks?: WebhookOptions
  billingDelayMs?: BillingDelay
  /** Seeds a billing delay spread that names no seed of its own. */
  seed?: number
  bulkDelayMs?: number
  /** The deployed web pixel extension's folder (default: the repository's); null: none deployed. */
  pixelExtensionDir?: string | null
  /** The deployed function extensions' folders (default: the repository's); []: none deployed. */
  functionExtensionDirs?: string[]
  /** The deployed thank-you block's folder (default: the repository's); null: none deployed. */
  checkoutUiExtensionDir?: string | null
  /** The app holds the theme-file exemption (themeFilesUpsert); default false. */
  themeFilesExemption?: boolean
}

const pick = (payload: Record<string, unknown>, fields: readonly string[]) =>
  Object.fromEntries(Object.entries(payload).filter(([k]) => fields.includes(k)))

/** The emulator's moving parts outside requests: timers, webhook delivery, bulk files. */
export function createRuntime(opts: RuntimeOptions) {
  const tasks = new Tasks()
  const w = opts.webhooks ?? {}
  const dispatcher = new WebhookDispatcher({
    apiSecret: opts.apiSecret,
    faults: opts.faults,
    tasks,
    retryBaseMs: w.retryBaseMs ?? 1000,
    maxAttempts: w.maxAttempts ?? 8,
    reorderHoldMs: w.reorderHoldMs ?? 200,
  })
  const appTopics = new Set(w.topics ?? [])
  let baseUrl = 'http://127.0.0.1'
  // Settable later: an app listening on a port chosen at start knows its URL only then.
  let callbackUrl = w.callbackUrl ?? null
  const apiKey = opts.apiKey ?? 'teiki-local-client-id'
  const runtime: Runtime = {
    emit(shop: ShopState, topic: string, payload: Record<string, unknown>) {
      const targets = new Map<string, Record<string, unknown>>()
      if (callbackUrl && (appTopics.has(topic) || COMPLIANCE_TOPICS.includes(topic)))
        targets.set(callbackUrl, payload)
      for (const s of shop.extra?.webhookSubscriptions ?? []) {
        if (s.topic === topic)
          targets.set(s.callbackUrl, s.includeFields.length > 0 ? pick(payload, s.includeFields) : payload)
      }
      // One event, one X-Shopify-Event-Id, however many subscriptions it goes to (each delivery
      // has its own webhook id), as on the platform.
      const eventId = randomUUID()
      for (const [url, body] of targets)
        dispatcher.emit(shop.info.myshopifyDomain, topic, body, [url], eventId)
    },
    later: (ms, fn) => tasks.later(ms, fn),
    faults: opts.faults,
    baseUrl: () => baseUrl,
    app: { apiKey, handle: 'teiki', title: 'Teiki 定期購買' },
    billingDelayMs: billingDelaySampler(opts.billingDelayMs, opts.seed ?? 1),
    bulkDelayMs: opts.bulkDelayMs ?? 50,
    get webhookCallbackUrl() {
      return callbackUrl
    },
    bulkFiles: new Map(),
    themeFilesExemption: opts.themeFilesExemption === true,
    pixelExtension:
      opts.pixelExtensionDir === null ? null : loadPixelExtension(opts.pixelExtensionDir ?? undefined),
    functions: (opts.functionExtensionDirs ?? DEFAULT_FUNCTION_EXTENSION_DIRS).map((dir) =>
      loadFunctionExtension(dir, apiKey),
    ),
    checkoutUiExtension:
      opts.checkoutUiExtensionDir === null
        ? null
        : loadCheckoutUiExtension(opts.checkoutUiExtensionDir ?? DEFAULT_CHECKOUT_UI_EXTENSION_DIR),
    checkoutSessionToken: (shopDomain) =>
      mintCheckoutToken(shopDomain, { apiKey, apiSecret: opts.apiSecret }),
    appProxy: loadAppProxyConfig(),
    signAppProxy: (query) => appProxySignature(query, opts.apiSecret),
  }
  return {
    runtime,
    tasks,
    dispatcher,
    setCallbackUrl(url: string) {
      callbackUrl = url
    },
    setBaseUrl(url: string) {
      baseUrl = url
    },
  }
}
