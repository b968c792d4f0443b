import type { IncomingMessage, ServerResponse } from 'node:http'
import { exchangeToken, parseTokenRequest, TOKEN_EXCHANGE_PATH } from './auth/token-exchange.ts'
import { productImageSvg } from './demo-data/product-images.ts'
import type { FaultSettings, Faults } from './faults.ts'
import { readBody, sendJson } from './http.ts'
import { approveAppSubscription } from './mutations/app-billing.ts'
import { bulkFileKey } from './mutations/bulk-operations.ts'
import type { Store } from './store.ts'

export type RouteDeps = {
  store: Store
  faults: Faults
  bulkFiles: Map<string, string>
  app: { apiKey: string; apiSecret: string }
  install: (shop: string) => { accessToken: string; scopes: string[] }
  /** Whether the test controls answer (EmulatorOptions.controls). */
  controls: boolean
}

type FaultsRequest = Partial<FaultSettings> & {
  reset?: boolean
  failPayment?: { shop: string; customerId?: string | number; paymentMethodId?: string; code?: string }
  outOfStock?: { shop: string; variantId: string | number; isOut?: boolean }
  failMutation?: {
    field: string
    userError?: { code?: string; field?: string[]; message?: string }
    times?: number
  }
}

function applyFaults(faults: Faults, body: FaultsRequest): void {
  const { reset, failPayment, outOfStock, failMutation, ...settings } = body
  if (reset) faults.reset()
  faults.set(settings)
  if (failPayment) {
    const target = failPayment.paymentMethodId ?? failPayment.customerId
    if (target === undefined) throw new Error('failPayment needs customerId or paymentMethodId')
    faults.failPayment(failPayment.shop, target, failPayment.code)
  }
  if (outOfStock) faults.outOfStock(outOfStock.shop, outOfStock.variantId, outOfStock.isOut ?? true)
  if (failMutation) {
    if (typeof failMutation.field !== 'string') throw new Error('failMutation needs a field')
    faults.failMutation(failMutation.field, failMutation.userError, failMutation.times)
  }
}

/**
 * Everything the HTTP server answers besides the Admin GraphQL endpoint: token exchange, bulk
 * files, charge approval (the platform's own URLs) and, for a test fixture only, the fault
 * control route. True when the request was handled.
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
  if (path === '/emulator/faults' && deps.controls) {
    if (req.method === 'POST') {
      try {
        applyFaults(deps.faults, JSON.parse((await readBody(req)) || '{}') as FaultsRequest)
      } catch (e) {
        sendJson(res, 400, { error: { code: 'INVALID_FAULTS', message: (e as Error).message } })
        return true
      }
    }
    sendJson(res, 200, deps.faults.settings)
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
    const text = deps.bulkFiles.get(bulkFileKey(decodeURIComponent(bulk[1]!), Number(bulk[2])))
    if (text === undefined) {
      sendJson(res, 404, { errors: 'Not Found' })
      return true
    }
    res.writeHead(200, { 'content-type': 'application/jsonl', 'content-length': Buffer.byteLength(text) })
    res.end(text)
    return true
  }
  const charge = /^\/admin\/charges\/([^/]+)\/(\d+)\/confirm$/.exec(path)
  if (charge && req.method === 'GET') {
    const shop = deps.store.shop(decodeURIComponent(charge[1]!))
    const sub = shop && approveAppSubscription(shop, Number(charge[2]), Date.now())
    if (!shop || !sub) {
      sendJson(res, 404, { errors: 'Not Found' })
      return true
    }
    deps.store.changed()
    const target = new URL(sub.returnUrl)
    target.searchParams.set('charge_id', String(sub.id))
    res.writeHead(302, { location: target.toString() })
    res.end()
    return true
  }
  return false
}
