import type { GraphQLSchema } from 'graphql'
import type { MintOptions } from './auth/session-token.ts'
import type { BillingDelay } from './billing-delay.ts'
import type { WebhookOptions } from './emulator-runtime.ts'
import type { CallLogEntry, GraphqlRequest, GraphqlResponse } from './execute.ts'
import type { FaultSettings, Faults } from './faults.ts'
import type { AppSubscriptionTarget } from './mutations/app-subscription-status.ts'
import type { Store } from './store.ts'
import type { Delivery } from './webhooks/dispatcher.ts'

/** The emulator's public surface: options, shops and the object tests and the app's dev server hold. */
export type ShopSpec = {
  domain: string
  contracts: number
  customers?: number
  withAppPlan?: boolean
  /** `shop.plan.displayName`, which also picks the rate limit (default Basic: 100/s, 2,000). */
  plan?: string
  /**
   * Scopes the app asks for that this shop's merchant has not granted, e.g. `['read_all_orders']`
   * (then orders older than 60 days are invisible to the app). Applied to a loaded shop too.
   */
  declinedScopes?: string[]
}

export type EmulatorOptions = {
  /** Where `emulator-state.json` lives; without it state is memory-only. */
  dataDir?: string
  seed?: number
  /** "Now" of the generated history (default: the real now). */
  now?: Date
  /** false disables the leaky bucket; an object fixes it for every shop (default: by shop plan). */
  throttle?: boolean | { restoreRate: number; bucketSize: number }
  shops?: ShopSpec[]
  /** Shops with more contracts are saved as their generation recipe (default 20,000). */
  maxSavedContracts?: number
  saveDebounceMs?: number
  /** The app's client id and secret: session tokens, token exchange and webhook HMACs use them. */
  apiKey?: string
  apiSecret?: string
  webhooks?: WebhookOptions
  /**
   * How long a billing attempt stays `ready: false`: a fixed ms (default 50), or a spread
   * `{ minMs, maxMs, seed? }` drawn per attempt, deterministic from the seed (billing-delay.ts).
   */
  billingDelayMs?: BillingDelay
  /** How long a bulk operation runs before COMPLETED (default 50 ms). */
  bulkDelayMs?: number
  faults?: Partial<FaultSettings>
  /**
   * The test controls over HTTP (`POST /emulator/faults`): only for a test fixture (tests,
   * benches). Off, they are unknown paths (404), so an emulator run for `npm start` or
   * `npm run seed` cannot be made to fail by anyone who reaches its port.
   */
  controls?: boolean
  /**
   * The folder of the app's deployed web pixel extension, whose settings definition
   * `webPixelCreate` validates against (default: the repository's `extensions/teiki-pixel`);
   * null: the app has deployed none (NO_EXTENSION).
   */
  pixelExtensionDir?: string | null
  /**
   * The folders of the app's deployed Shopify Functions (default: the repository's
   * `extensions/teiki-box-rules`); [] : the app has deployed none (`shopifyFunctions` is empty,
   * `validationCreate` answers FUNCTION_NOT_FOUND).
   */
  functionExtensionDirs?: string[]
  /** The deployed thank-you block's folder (default: the repository's extensions/teiki-thank-you); null: none. */
  checkoutUiExtensionDir?: string | null
  /**
   * The app holds Shopify's exemption to modify theme files (shopify.dev, themeFilesUpsert: "The
   * user needs write_themes and an exemption from Shopify"). Default false, as for nearly every
   * app: `themeFilesUpsert` answers ACCESS_DENIED and the app adds its block through the theme
   * editor's deep link.
   */
  themeFilesExemption?: boolean
}

export const DEFAULT_API_KEY = 'teiki-emulator-api-key'
export const DEFAULT_API_SECRET = 'teiki-emulator-api-secret'

export type Emulator = {
  listen(port: number, host?: string): Promise<{ port: number; url: string }>
  close(): Promise<void>
  /** Installs the app on `domain` (creating an empty shop if unknown); idempotent. */
  install(domain: string): { accessToken: string; scopes: string[] }
  /** Runs one Admin API call as the shop's app, without HTTP (tests, scripts). */
  graphql(domain: string, request: GraphqlRequest): Promise<GraphqlResponse>
  readonly store: Store
  readonly callLog: CallLogEntry[]
  readonly schema: GraphQLSchema
  /** Fault knobs (also `POST /emulator/faults` when created with `controls: true`). */
  readonly faults: Faults
  readonly webhooks: {
    /** Every delivery so far, with its attempts and outcome. */
    readonly deliveries: readonly Delivery[]
    /** Points the app's webhooks (`webhooks.topics`) at `url`, for an app that learns its port at start. */
    setCallbackUrl(url: string): void
    /** A shop-level subscription to any URL (GraphQL ones go to `webhooks.callbackUrl`). */
    subscribe(domain: string, topic: string, callbackUrl: string): void
  }
  /** Resolves when no billing outcome, bulk operation or webhook delivery is pending. */
  idle(timeoutMs?: number): Promise<void>
  /** A session token as App Bridge would give the embedded app (defaults: this emulator's app). */
  sessionToken(domain: string, opts?: Partial<MintOptions>): string
  /** The merchant approves a pending `appSubscriptionCreate` charge (GID or number); false if unknown. */
  approveAppSubscription(domain: string, id: string | number): boolean
  /**
   * The platform moves the app's subscription (`id`, GID or number; else the newest that can
   * make the move) to `status`, sending `app_subscriptions/update`; throws for a move the
   * platform does not make (also the `appSubscriptionStatus` test control).
   */
  setAppSubscriptionStatus(
    domain: string,
    status: AppSubscriptionTarget,
    id?: string | number,
  ): { id: number; status: string }
  /**
   * The customer answers a challenged billing attempt's 3-D Secure (as its `nextActionUrl` page
   * does): `success` creates the order, `failure` fails it with AUTHENTICATION_ERROR; each sends
   * its webhook. False when the attempt (GID or number) has no open challenge.
   */
  completeChallenge(domain: string, attemptId: string | number, result: 'success' | 'failure'): boolean
  /** Uninstalls the app: the token stops working, then `app/uninstalled` is sent. */
  uninstall(domain: string): void
  /** The customer asks for their data: `customers/data_request` (real payload, signed). */
  requestCustomerData(domain: string, customerId: number): void
  /** The customer asks to be erased: `customers/redact` with the customer's orders. */
  redactCustomer(domain: string, customerId: number): void
  /** 48 hours after an uninstall: `shop/redact`. Throws while the app is installed. */
  redactShop(domain: string): void
  /**
   * The merchant's answer to the app's scopes: exactly `scopes` are granted from now on (the
   * app's token keeps working); any the app asks for and that are not in it count as declined.
   */
  setAccessScopes(domain: string, scopes: string[]): void
  /** Changes `shop.plan.displayName` and with it the shop's rate limit. */
  setPlan(domain: string, displayName: string): void
}
