import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { exchangeToken, parseTokenRequest, TOKEN_EXCHANGE_PATH } from './auth/token-exchange.ts'
import type { Runtime } from './context.ts'
import { productImageSvg } from './demo-data/product-images.ts'
import type { FaultSettings, Faults } from './faults.ts'
import { readBody, sendJson } from './http.ts'
import { handleChargePage } from './mutations/app-billing-page.ts'
import {
  APP_SUBSCRIPTION_TARGETS,
  type AppSubscriptionTarget,
  moveAppSubscription,
  subscriptionFor,
} from './mutations/app-subscription-status.ts'
import {
  type ChallengeResult,
  completeChallenge,
  handleChallengePage,
} from './mutations/billing-challenge.ts'
import { bulkFileKey } from './mutations/bulk-operations.ts'
import type { Store } from './store.ts'
import { handleStorefront } from './storefront/routes.ts'
import { handleThemeEditor } from './storefront/theme-editor.ts'

export type RouteDeps = {
  store: Store
  faults: Faults
  bulkFiles: Map<string, Buffer[]>
  app: { apiKey: string; apiSecret: string }
  install: (shop: string) => { accessToken: string; scopes: string[] }
  /** Whether the test controls answer (EmulatorOptions.controls). */
  controls: boolean
  runtime: Runtime
}

type FaultsRequest = Partial<FaultSettings> & {
  reset?: boolean
  failPayment?: { shop: string; customerId?: string | number; paymentMethodId?: string; code?: string }
  outOfStock?: { shop: string; variantId: string | number; isOut?: boolean }
  /** Charges to this customer or payment method are challenged (3-D Secure); `false` clears it. */
  challengePayment?: {
    shop: string
    customerId?: string | number
    paymentMethodId?: string
    challenged?: boolean
  }
  /** The customer completes (success) or fails (failure) an open challenge, as its page would. */
  completeChallenge?: { shop: string; attemptId: string | number; result: ChallengeResult }
  failMutation?: {
    field: string
    userError?: { code?: string; field?: string[]; message?: string }
    times?: number
  }
  /**
   * The platform moves the app's subscription (`id`, else the newest that can make the move) to
   * `status`: approved, declined, expired, cancelled, frozen or unfrozen, with its webhook.
   */
  appSubscriptionStatus?: { shop: string; id?: string | number; status: AppSubscriptionTarget }
  /** The calls of this root Mutation field after the first `after` wait until `releaseHolds`. */
  holdMutation?: { field: string; after: number }
  releaseHolds?: boolean
}

function applyFaults(faults: Faults, body: FaultsRequest): void {
  const {
    reset,
    failPayment,
    outOfStock,
    failMutation,
    challengePayment,
    completeChallenge: _,
    appSubscriptionStatus: _status,
    holdMutation,
    releaseHolds,
    ...settings
  } = body
  if (reset) faults.reset()
  faults.set(settings)
  if (releaseHolds) faults.releaseHolds()
  if (holdMutation) {
    if (typeof holdMutation.field !== 'string') throw new Error('holdMutation needs a field')
    faults.holdMutation(holdMutation.field, holdMutation.after)
  }
  if (failPayment) {
    const target = failPayment.paymentMethodId ?? failPayment.customerId
    if (target === undefined) throw new Error('failPayment needs customerId or paymentMethodId')
    faults.failPayment(failPayment.shop, target, failPayment.code)
  }
  if (outOfStock) faults.outOfStock(outOfStock.shop, outOfStock.variantId, outOfStock.isOut ?? true)
  if (challengePayment) {
    const target = challengePayment.paymentMethodId ?? challengePayment.customerId
    if (target === undefined) throw new Error('challengePayment needs customerId or paymentMethodId')
    faults.challengePayment(challengePayment.shop, target, challengePayment.challenged ?? true)
  }
  if (failMutation) {
    if (typeof failMutation.field !== 'string') throw new Error('failMutation needs a field')
    faults.failMutation(failMutation.field, failMutation.userError, failMutation.times)
  }
}

/** The `completeChallenge` control: throws (400) when the attempt has no open challenge. */
function completeByControl(deps: RouteDeps, input: NonNullable<FaultsRequest['completeChallenge']>): void {
  const shop = deps.store.shop(input.shop)
  if (!shop) throw new Error(`unknown shop ${input.shop}`)
  if (input.result !== 'success' && input.result !== 'failure')
    throw new Error('completeChallenge.result must be success or failure')
  const id =
    typeof input.attemptId === 'number' ? input.attemptId : Number(String(input.attemptId).split('/').pop())
  const ctx = { shop, store: deps.store, now: () => Date.now(), runtime: deps.runtime }
  if (!completeChallenge(ctx, id, input.result))
    throw new Error(`attempt ${input.attemptId} has no open challenge`)
}

/** The `appSubscriptionStatus` control: throws (400) for an unknown shop or a move the platform does not make. */
function moveByControl(deps: RouteDeps, input: NonNullable<FaultsRequest['appSubscriptionStatus']>): void {
  const shop = deps.store.shop(input.shop)
  if (!shop) throw new Error(`unknown shop ${input.shop}`)
  if (!APP_SUBSCRIPTION_TARGETS.includes(input.status))
    throw new Error(`appSubscriptionStatus.status must be one of ${APP_SUBSCRIPTION_TARGETS.join(', ')}`)
  const sub = subscriptionFor(shop, input.id, input.status)
  moveAppSubscription({ shop, runtime: deps.runtime, now: Date.now() }, sub, input.status)
  deps.store.changed()
}

/**
 * Everything the HTTP server answers besides the Admin GraphQL endpoint: token exchange, bulk
 * files, charge approval, the customer's 3-D Secure page (the platform's own URLs) and, for a
 * test fixture only, the fault control route. True when the request was handled.
 */
export async function handleExtraRoute(
  req: IncomingMessage,
  res: ServerResponse,
  deps: RouteDeps,
): Promise<boolean> {
  const path = (req.url ?? '/').split('?')[0]!
  if (path === TOKEN_EXCHANGE_PATH && req.method === 'POST') {
    const latency = deps.faults.settings.latencyMs
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency))
    const params = parseTokenRequest(await readBody(req), req.headers['content-type'])
    const { status, body } = exchangeToken(params, deps.app, deps.install)
    sendJson(res, status, body)
    return true
  }
  if (await handleChallengePage(req, res, deps)) return true
  if (await handleStorefront(req, res, deps)) return true
  if (
    handleThemeEditor(req, res, { store: deps.store, apiKey: deps.app.apiKey, baseUrl: deps.runtime.baseUrl })
  )
    return true
  if (path === '/emulator/faults' && deps.controls) {
    if (req.method === 'POST') {
      try {
        const body = JSON.parse((await readBody(req)) || '{}') as FaultsRequest
        applyFaults(deps.faults, body)
        if (body.completeChallenge) completeByControl(deps, body.completeChallenge)
        if (body.appSubscriptionStatus) moveByControl(deps, body.appSubscriptionStatus)
      } catch (e) {
        sendJson(res, 400, { error: { code: 'INVALID_FAULTS', message: (e as Error).message } })
        return true
      }
    }
    sendJson(res, 200, { ...deps.faults.settings, held: deps.faults.held })
    return true
  }
  const image = /^\/cdn\/products\/([a-z0-9-]+)\.svg$/.exec(path)
  if (image && req.method === 'GET') {
    const svg = productImageSvg(image[1]!)
    if (svg === null) {
      sendJson(res, 404, { errors: 'Not Found' })
      return true
    }
    res.writeHead(200, {
      'content-type': 'image/svg+xml; charset=utf-8',
      'content-length': Buffer.byteLength(svg),
      'cache-control': 'public, max-age=86400',
    })
    res.end(svg)
    return true
  }
  const bulk = /^\/bulk\/([^/]+)\/(\d+)\.jsonl$/.exec(path)
  if (bulk && req.method === 'GET') {
    const chunks = deps.bulkFiles.get(bulkFileKey(decodeURIComponent(bulk[1]!), Number(bulk[2])))
    if (chunks === undefined) {
      sendJson(res, 404, { errors: 'Not Found' })
      return true
    }
    const length = chunks.reduce((n, c) => n + c.length, 0)
    res.writeHead(200, { 'content-type': 'application/jsonl', 'content-length': length })
    Readable.from(chunks).pipe(res)
    return true
  }
  if (await handleChargePage(req, res, deps)) return true
  return false
}
