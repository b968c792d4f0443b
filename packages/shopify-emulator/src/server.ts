import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Kind, parse } from 'graphql'
import { mintSessionToken } from './auth/session-token.ts'
import { DEMO_DOMAIN, generateShop } from './demo-data.ts'
import {
  DEFAULT_API_KEY,
  DEFAULT_API_SECRET,
  type Emulator,
  type EmulatorOptions,
  type ShopSpec,
} from './emulator-api.ts'
import { createRuntime } from './emulator-runtime.ts'
import { type CallLogEntry, type GraphqlRequest, runGraphql } from './execute.ts'
import { Faults } from './faults.ts'
import { parseGid } from './gid.ts'
import { GRAPHQL_PATH, INVALID_TOKEN_BODY, readBody, sendJson } from './http.ts'
import { declineScopes, setGrantedScopes } from './installation-scopes.ts'
import { approveAppSubscription } from './mutations/app-billing.ts'
import { moveAppSubscription, subscriptionFor } from './mutations/app-subscription-status.ts'
import { completeChallenge } from './mutations/billing-challenge.ts'
import { loadState, saveState } from './persistence.ts'
import { planBucket, planInfo } from './plans.ts'
import type { ShopState } from './records.ts'
import { handleExtraRoute } from './routes.ts'
import { createSchema } from './schema.ts'
import { extraOf, newId } from './shop-extra.ts'
import { Store } from './store.ts'
import { LeakyBucket, type ThrottleOptions } from './throttle.ts'
import { complianceTriggers } from './webhooks/compliance.ts'
import { appUninstalledPayload } from './webhooks/payloads.ts'

export * from './emulator-api.ts'

export const DEFAULT_SHOPS: ShopSpec[] = [{ domain: DEMO_DOMAIN, contracts: 320 }]

/** The bucket for `shop`: the option when it fixes one, else the shop's plan. */
function throttleOptions(t: EmulatorOptions['throttle'], shop: ShopState): ThrottleOptions {
  if (t === false) return { ...planBucket(shop.info.plan), enabled: false }
  if (t === true || t === undefined) return { ...planBucket(shop.info.plan), enabled: true }
  return { ...t, enabled: true }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Bodies the platform's edge answers with when it fails. */
const failureBodies: Record<number, string> = {
  500: JSON.stringify({ errors: 'Internal Server Error' }),
  502: '<html><body><h1>502 Bad Gateway</h1></body></html>',
  503: JSON.stringify({ errors: 'Service Unavailable: please try again later' }),
}

export async function createEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const seed = opts.seed ?? 1
  const now = opts.now ?? new Date()
  const specs = opts.shops ?? DEFAULT_SHOPS
  const maxSaved = opts.maxSavedContracts ?? 20_000
  const store = new Store()
  const callLog: CallLogEntry[] = []
  const schema = createSchema()
  const buckets = new Map<string, LeakyBucket>()
  const app = { apiKey: opts.apiKey ?? DEFAULT_API_KEY, apiSecret: opts.apiSecret ?? DEFAULT_API_SECRET }
  const faults = new Faults()
  if (opts.faults) faults.set(opts.faults)
  const { runtime, tasks, dispatcher, setBaseUrl, setCallbackUrl } = createRuntime({
    faults,
    apiKey: app.apiKey,
    apiSecret: app.apiSecret,
    webhooks: opts.webhooks,
    billingDelayMs: opts.billingDelayMs,
    seed,
    bulkDelayMs: opts.bulkDelayMs,
    pixelExtensionDir: opts.pixelExtensionDir,
    functionExtensionDirs: opts.functionExtensionDirs,
    checkoutUiExtensionDir: opts.checkoutUiExtensionDir,
    themeFilesExemption: opts.themeFilesExemption,
  })

  const loaded = opts.dataDir ? loadState(opts.dataDir) : null
  for (const shop of loaded ?? []) store.add(shop)
  const generate = (spec: ShopSpec): ShopState => {
    const shop = generateShop({ ...spec, seed, now })
    if (spec.plan) shop.info.plan = planInfo(spec.plan)
    return shop
  }
  let created = false
  for (const spec of specs) {
    const kept = store.shop(spec.domain)
    if (!kept) {
      store.add(generate(spec))
      created = true
    }
    const shop = store.shop(spec.domain)!
    if (spec.declinedScopes?.some((scope) => shop.installation.scopes.includes(scope))) {
      declineScopes(shop.installation, spec.declinedScopes)
      created = true
    }
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

  const bucketOf = (shop: ShopState) => {
    const domain = shop.info.myshopifyDomain
    let b = buckets.get(domain)
    if (!b) {
      b = new LeakyBucket(throttleOptions(opts.throttle, shop), Date.now())
      buckets.set(domain, b)
    }
    return b
  }
  const call = async (shop: ShopState, request: GraphqlRequest) => {
    const latency = faults.settings.latencyMs
    if (latency > 0) await sleep(latency)
    if (faults.holding) await faults.gate(mutationFields(request))
    const { response, log } = await runGraphql({
      schema,
      context: { shop, store, now: () => Date.now(), runtime },
      bucket: bucketOf(shop),
      request,
      forceThrottle: faults.takeThrottle(),
    })
    if (log) callLog.push(log)
    return response
  }
  const install = (domain: string) => {
    let shop = store.shop(domain)
    if (!shop) {
      // A shop the app was just installed on: it holds no app plan until the merchant approves one.
      shop = generate({ domain, contracts: 0, customers: 0, withAppPlan: false })
      store.add(shop)
      store.changed()
    } else if (!store.shopByToken(shop.installation.accessToken)) {
      // Reinstall after an uninstall: a fresh offline token.
      shop.installation.accessToken = `shpat_${randomBytes(16).toString('hex')}`
      store.add(shop)
      store.changed()
    }
    return { accessToken: shop.installation.accessToken, scopes: [...shop.installation.scopes] }
  }
  const shopOf = (domain: string) => {
    const shop = store.shop(domain)
    if (!shop) throw new Error(`unknown shop ${domain}`)
    return shop
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]
    if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { status: 'ok' })
    const deps = {
      store,
      faults,
      bulkFiles: runtime.bulkFiles,
      app,
      install,
      controls: opts.controls === true,
      runtime,
    }
    if (await handleExtraRoute(req, res, deps)) return
    if (path !== GRAPHQL_PATH) return sendJson(res, 404, { errors: 'Not Found' })
    if (req.method !== 'POST') return sendJson(res, 405, { errors: 'Method Not Allowed' })
    const token = req.headers['x-shopify-access-token']
    const shop = typeof token === 'string' ? store.shopByToken(token) : undefined
    if (!shop) return sendJson(res, 401, INVALID_TOKEN_BODY)
    const failure = faults.httpFailure()
    if (failure) {
      const text = failureBodies[failure]!
      res.writeHead(failure, { 'content-type': text.startsWith('<') ? 'text/html' : 'application/json' })
      return void res.end(text)
    }
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
    faults,
    webhooks: {
      deliveries: dispatcher.deliveries,
      setCallbackUrl,
      subscribe(domain, topic, callbackUrl) {
        const shop = shopOf(domain)
        const at = Date.now()
        extraOf(shop, at).webhookSubscriptions.push({
          id: newId(shop, 'WebhookSubscription'),
          topic,
          callbackUrl,
          format: 'JSON',
          includeFields: [],
          filter: null,
          createdAt: at,
          updatedAt: at,
        })
        store.changed()
      },
    },
    idle: (timeoutMs) => tasks.idle(timeoutMs),
    sessionToken: (domain, o = {}) => mintSessionToken(domain, { ...app, ...o }),
    approveAppSubscription(domain, id) {
      const numeric = typeof id === 'number' ? id : (parseGid(id)?.id ?? -1)
      const sub = approveAppSubscription({ shop: shopOf(domain), runtime, now: Date.now() }, numeric)
      if (sub) store.changed()
      return sub?.status === 'ACTIVE'
    },
    setAppSubscriptionStatus(domain, status, id) {
      const shop = shopOf(domain)
      const sub = subscriptionFor(shop, id, status)
      moveAppSubscription({ shop, runtime, now: Date.now() }, sub, status)
      store.changed()
      return { id: sub.id, status: sub.status }
    },
    completeChallenge(domain, attemptId, result) {
      const id = typeof attemptId === 'number' ? attemptId : (parseGid(attemptId)?.id ?? -1)
      return completeChallenge({ shop: shopOf(domain), store, now: () => Date.now(), runtime }, id, result)
    },
    uninstall(domain) {
      const shop = shopOf(domain)
      // Revoked first, as on the platform: the app confirms an uninstall by its token failing.
      if (!store.revoke(shop.installation.accessToken)) return
      // The app's web pixel and script tags go with it: a reinstall starts without them.
      if (shop.extra?.webPixel) shop.extra.webPixel = null
      if (shop.extra) shop.extra.scriptTags = shop.extra.scriptTags.filter((t) => t.apiKey !== app.apiKey)
      store.changed()
      runtime.emit(shop, 'app/uninstalled', appUninstalledPayload(shop))
    },
    ...complianceTriggers({ store, runtime, shopOf }),
    setAccessScopes(domain, scopes) {
      setGrantedScopes(shopOf(domain).installation, scopes)
      store.changed()
    },
    setPlan(domain, displayName) {
      shopOf(domain).info.plan = planInfo(displayName)
      buckets.delete(domain)
      store.changed()
    },
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject)
        server.listen(port, host, () => {
          const actual = (server.address() as AddressInfo).port
          const url = `http://${host}:${actual}`
          setBaseUrl(url)
          resolve({ port: actual, url })
        })
      })
    },
    async close() {
      tasks.close()
      if (timer) clearTimeout(timer)
      timer = null
      if (server.listening) {
        server.closeAllConnections()
        await new Promise<void>((resolve) => server.close(() => resolve()))
      }
      save()
    },
    install,
    graphql: (domain, request) => call(shopOf(domain), request),
  }
}

/** The root fields of a mutation request ([] for a query or a document that does not parse). */
function mutationFields(request: GraphqlRequest): string[] {
  try {
    const doc = parse(request.query)
    return doc.definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation'
        ? d.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []))
        : [],
    )
  } catch {
    return []
  }
}
