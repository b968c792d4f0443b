import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { GraphQLSchema } from 'graphql'
import { DEMO_DOMAIN, generateShop } from './demo-data.ts'
import { type CallLogEntry, type GraphqlRequest, type GraphqlResponse, runGraphql } from './execute.ts'
import { GRAPHQL_PATH, INVALID_TOKEN_BODY, readBody, sendJson } from './http.ts'
import { loadState, saveState } from './persistence.ts'
import type { ShopState } from './records.ts'
import { createSchema } from './schema.ts'
import { Store } from './store.ts'
import { LeakyBucket, STANDARD_THROTTLE, type ThrottleOptions } from './throttle.ts'

export type ShopSpec = { domain: string; contracts: number; customers?: number; withAppPlan?: boolean }

export type EmulatorOptions = {
  /** Where `emulator-state.json` lives; without it state is memory-only. */
  dataDir?: string
  seed?: number
  /** "Now" of the generated history (default: the real now). */
  now?: Date
  /** false disables the leaky bucket; an object tunes it (default: Standard plan, 100/s, 2,000). */
  throttle?: boolean | { restoreRate: number; bucketSize: number }
  shops?: ShopSpec[]
  /** Shops with more contracts are saved as their generation recipe (default 20,000). */
  maxSavedContracts?: number
  saveDebounceMs?: number
}

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
}

export const DEFAULT_SHOPS: ShopSpec[] = [{ domain: DEMO_DOMAIN, contracts: 320 }]

function throttleOptions(t: EmulatorOptions['throttle']): ThrottleOptions {
  if (t === false) return { ...STANDARD_THROTTLE, enabled: false }
  if (t === true || t === undefined) return STANDARD_THROTTLE
  return { ...t, enabled: true }
}

export async function createEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const seed = opts.seed ?? 1
  const now = opts.now ?? new Date()
  const specs = opts.shops ?? DEFAULT_SHOPS
  const maxSaved = opts.maxSavedContracts ?? 20_000
  const throttle = throttleOptions(opts.throttle)
  const store = new Store()
  const callLog: CallLogEntry[] = []
  const schema = createSchema()
  const buckets = new Map<string, LeakyBucket>()

  const loaded = opts.dataDir ? loadState(opts.dataDir) : null
  for (const shop of loaded ?? []) store.add(shop)
  const generate = (spec: ShopSpec): ShopState => generateShop({ ...spec, seed, now })
  let created = false
  for (const spec of specs) {
    if (store.shop(spec.domain)) continue
    store.add(generate(spec))
    created = true
  }

  const save = () => {
    if (opts.dataDir) saveState(opts.dataDir, store.shops.values(), maxSaved)
  }
  if (created) save()
  let timer: NodeJS.Timeout | null = null
  store.onChange(() => {
    if (!opts.dataDir || timer) return
    timer = setTimeout(() => {
      timer = null
      save()
    }, opts.saveDebounceMs ?? 250)
    timer.unref()
  })

  const bucketOf = (domain: string) => {
    let b = buckets.get(domain)
    if (!b) {
      b = new LeakyBucket(throttle, Date.now())
      buckets.set(domain, b)
    }
    return b
  }
  const call = async (shop: ShopState, request: GraphqlRequest) => {
    const { response, log } = await runGraphql({
      schema,
      context: { shop, store, now: () => Date.now() },
      bucket: bucketOf(shop.info.myshopifyDomain),
      request,
    })
    if (log) callLog.push(log)
    return response
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' })
    if (path !== GRAPHQL_PATH) return sendJson(res, 404, { errors: 'Not Found' })
    if (req.method !== 'POST') return sendJson(res, 405, { errors: 'Method Not Allowed' })
    const token = req.headers['x-shopify-access-token']
    const shop = typeof token === 'string' ? store.shopByToken(token) : undefined
    if (!shop) return sendJson(res, 401, INVALID_TOKEN_BODY)
    let body: GraphqlRequest
    try {
      body = JSON.parse(await readBody(req)) as GraphqlRequest
    } catch {
      body = { query: '' }
    }
    if (!body || typeof body.query !== 'string' || body.query.length === 0) {
      return sendJson(res, 400, { errors: { query: 'Required parameter missing or invalid' } })
    }
    sendJson(res, 200, await call(shop, body))
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { errors: `Internal error: ${String(e)}` })
    })
  })

  return {
    store,
    callLog,
    schema,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          const actual = (server.address() as AddressInfo).port
          resolve({ port: actual, url: `http://${host}:${actual}` })
        })
      })
    },
    async close() {
      if (timer) clearTimeout(timer)
      timer = null
      if (server.listening) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
      save()
    },
    install(domain) {
      let shop = store.shop(domain)
      if (!shop) {
        shop = generate({ domain, contracts: 0, customers: 0 })
        store.add(shop)
        store.changed()
      }
      return { accessToken: shop.installation.accessToken, scopes: [...shop.installation.scopes] }
    },
    graphql(domain, request) {
      const shop = store.shop(domain)
      if (!shop) throw new Error(`unknown shop ${domain}`)
      return call(shop, request)
    },
  }
}
