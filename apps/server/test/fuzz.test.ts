import { ErrorCode } from '@teiki/contract'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { useEmulatedApp } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'
import { type FuzzContext, type FuzzRequest, type RouteShape, requestsFor } from './support/fuzz-inputs.ts'

// Issue 11 / 12 "must show": at least 20,000 hostile requests across every registered route,
// authenticated as a real installed shop and not: no 5xx, every 4xx in the app's error shape,
// and (sampled) nothing written for a refused request. The platform is the in-process emulator.

const SEED = 20261124
const MIN_TOTAL = 20_000
/** Every Nth request is also checked for writes (a snapshot of the shop's rows before and after). */
const WRITE_SAMPLE_EVERY = 20

const DOMAIN = testDomain('fuzz')
const SECRET = 's3cret-fuzz'

let ctx: FuzzContext

const env = useEmulatedApp({ shops: [{ domain: DOMAIN, contracts: 6 }], secret: SECRET })
beforeAll(async () => {
  await env.sync(DOMAIN, { bulk: false })
  const shop = env.emulator.store.shop(DOMAIN)!
  const c = shop.contracts.find((c) => c.status === 'ACTIVE' && c.lines.length > 0)!
  const reason = await env.app.inject({
    method: 'POST',
    url: `/app-admin/cancellation-reasons?shop=${DOMAIN}&secret=${SECRET}`,
    payload: { reason: '価格が高い' },
  })
  // The web pixel's key rides along, so the public ingest route (auth `pixel`) is fuzzed past its key check too.
  const pixel = await env.app.inject({
    method: 'GET',
    url: `/app-admin/traffic/pixel-settings?shop=${DOMAIN}&secret=${SECRET}`,
  })
  ctx = {
    auth: `shop=${DOMAIN}&secret=${SECRET}&key=${pixel.json().accountID}`,
    contractId: String(c.id),
    customerId: String(c.customerId),
    lineId: String(c.lines[0]!.id),
    variantId: String(c.lines[0]!.variantId),
    revision: String(c.revisionId),
    reasonId: reason.json().id,
  }
}, 60_000)

/** Every route with the query and body fields its OpenAPI schema names. */
function routeShapes(): RouteShape[] {
  const doc = env.app.swagger() as {
    paths: Record<
      string,
      Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>
    >
  }
  return env.app.routeList.map(({ method, url }) => {
    const operation = doc.paths[url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[method.toLowerCase()]
    const query = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
    const body =
      (operation?.requestBody as { content?: Record<string, { schema?: RouteShape['body'] }> } | undefined)
        ?.content?.['application/json']?.schema ?? null
    return { method, url, query, body }
  })
}

const MUTATION =
  /(Create|Update|Commit|Pause|Activate|Cancel|Apply|Remove|Set|Send|Expire|Delete|Add|Replace)$/

/** What a refused request must not change: the shop's rows and platform mutations. */
async function footprint() {
  const { rows } = await env.pool.query<{ digest: string }>(
    `select md5(concat_ws('|',
       (select string_agg(id || ':' || revision_id || ':' || coalesce(note, '') || ':' || status, ',' order by id)
          from subscription_contracts where shop_id = $1),
       (select count(*) from contract_events where shop_id = $1),
       (select count(*) from contract_exports where shop_id = $1),
       (select string_agg(id || ':' || reason || ':' || coalesce(deleted_at::text, ''), ',' order by id)
          from cancellation_reasons where shop_id = $1),
       (select count(*) from contract_cancellations where shop_id = $1),
       (select count(*) from mail_outbox where shop_id = $1),
       (select count(*) from traffic_hits where shop_id = $1))) as digest`,
    [env.shopIds[DOMAIN]],
  )
  const mutations = env.emulator.callLog.filter((call) =>
    call.rootFields.some((f) => MUTATION.test(f)),
  ).length
  return `${rows[0]!.digest}/${mutations}`
}

type Failure = { request: FuzzRequest; status: number; body: string; why: string }

function checkAnswer(request: FuzzRequest, status: number, body: string): string | null {
  if (status >= 500) return '5xx'
  if (status < 400 || request.method === 'HEAD') return null
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return '4xx body is not JSON'
  }
  const error = (parsed as { error?: { code?: unknown; message?: unknown } }).error
  const keys = Object.keys(parsed as object)
  if (keys.length !== 1 || !error || Object.keys(error).sort().join() !== 'code,message') return '4xx shape'
  if (!Object.values(ErrorCode).includes(error.code as ErrorCode)) return '4xx code'
  // Merchants read these: Japanese, whatever the cause.
  if (typeof error.message !== 'string' || !/[ぁ-んァ-ン一-龥]/.test(error.message)) return '4xx message'
  return null
}

describe('fuzzer', () => {
  it(`sends ≥${MIN_TOTAL} hostile requests to every route: no 5xx, 4xx in the error shape in Japanese, nothing written when refused`, async () => {
    const routes = routeShapes()
    expect(routes.length).toBeGreaterThan(40)
    // Each route gets its share of the total, with a margin.
    const perRoute = Math.ceil((MIN_TOTAL * 1.05) / routes.length)
    const failures: Failure[] = []
    const statuses = new Map<number, number>()
    let sent = 0
    let sampled = 0
    for (const [index, route] of routes.entries()) {
      const requests = fc.sample(requestsFor(route, ctx), { numRuns: perRoute, seed: SEED + index })
      for (const request of requests) {
        const sample = sent % WRITE_SAMPLE_EVERY === 0
        const before = sample ? await footprint() : ''
        const res = await env.app.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        })
        sent++
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
        const why = checkAnswer(request, res.statusCode, res.body)
        if (why) failures.push({ request, status: res.statusCode, body: res.body.slice(0, 300), why })
        if (sample && res.statusCode >= 400) {
          sampled++
          if ((await footprint()) !== before)
            failures.push({
              request,
              status: res.statusCode,
              body: res.body.slice(0, 300),
              why: 'refused but wrote',
            })
        }
      }
    }
    const summary = {
      sent,
      routes: routes.length,
      sampledRefusals: sampled,
      statuses: Object.fromEntries(statuses),
    }
    console.log(`[fuzz] ${JSON.stringify(summary)}`)
    expect(
      failures
        .slice(0, 5)
        .map((f) => ({ ...f, request: { ...f.request, url: f.request.url.slice(0, 300) } })),
    ).toEqual([])
    expect(sent).toBeGreaterThanOrEqual(MIN_TOTAL)
    expect(sampled).toBeGreaterThan(200)
    // Some requests must get through the schemas, or the fuzzer only tests the validators.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(500)
  }, 900_000)
})
