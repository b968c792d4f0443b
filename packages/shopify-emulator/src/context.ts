import type { CheckoutUiExtension } from './checkout-ui-extension.ts'
import type { Faults } from './faults.ts'
import type { FunctionExtension } from './function-extension.ts'
import type { ShopState } from './records.ts'
import type { Store } from './store.ts'
import type { AppProxyConfig } from './storefront/app-proxy.ts'
import type { PixelExtension } from './web-pixel-extension.ts'

/** What mutations need from the running emulator beyond the shop's data. */
export type Runtime = {
  /** Queues a webhook delivery to every subscription of `topic` (REST style: `orders/create`). */
  emit(shop: ShopState, topic: string, payload: Record<string, unknown>): void
  /** Runs `fn` after `ms`, tracked so `emulator.idle()` can wait for it and `close()` cancel it. */
  later(ms: number, fn: () => void): void
  faults: Faults
  /** The emulator's own URL (bulk files, confirmation links); a placeholder until `listen`. */
  baseUrl(): string
  /** The app this emulator plays the platform for (`currentAppInstallation.app`). */
  app: { apiKey: string; handle: string; title: string }
  /** The processing time of the next billing attempt (billing-delay.ts). */
  billingDelayMs(): number
  bulkDelayMs: number
  /** Where `webhookSubscriptionCreate` points: the 2025-04 input has no URL field (see mutations/webhook-subscriptions.ts). */
  webhookCallbackUrl: string | null
  /** Keeps the JSONL of a finished bulk operation for `GET /bulk/<id>.jsonl`. */
  /** Each bulk operation's JSONL file, as the pages it was written in. */
  bulkFiles: Map<string, Buffer[]>
  /**
   * The app holds Shopify's exemption to modify theme files (`themeFilesUpsert`); without it the
   * platform answers ACCESS_DENIED, as it does for nearly every app.
   */
  themeFilesExemption: boolean
  /** The app's deployed web pixel extension (web-pixel-extension.ts); null: the app has none. */
  pixelExtension: PixelExtension | null
  /** The app's deployed Shopify Functions (function-extension.ts). */
  functions: FunctionExtension[]
  /** The app's deployed thank-you block (checkout-ui-extension.ts); null: the app has none. */
  checkoutUiExtension: CheckoutUiExtension | null
  /** A checkout UI extension's session token for the shop (`dest` the bare domain; no buyer is logged in). */
  checkoutSessionToken(shopDomain: string): string
  /** The app's proxy ([app_proxy] of shopify.app.toml), or null when it declares none. */
  appProxy: AppProxyConfig | null
  /** The app proxy's `signature` over these query parameters (HMAC-SHA256 with the app secret, hex). */
  signAppProxy(query: Record<string, string>): string
}

/** Per-request context: resolvers only ever see the shop the access token belongs to. */
export type Context = {
  shop: ShopState
  store: Store
  now: () => number
  runtime: Runtime
  /**
   * Set while a bulk export runs (one per export): a list it walks page by page is filtered and
   * sorted once, as the platform walks one view of the shop, not once a page.
   */
  exportMemo?: Map<string, unknown>
}

/** `make()` once per export (ctx.exportMemo), or every time outside one. */
export function perExport<T>(ctx: Context, key: string, make: () => T): T {
  if (!ctx.exportMemo) return make()
  if (!ctx.exportMemo.has(key)) ctx.exportMemo.set(key, make())
  return ctx.exportMemo.get(key) as T
}
