import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import type { AppInstance } from '../../src/http/app.ts'
import { hashSecret } from '../../src/http/auth.ts'
import { createAdminClient } from '../../src/platform/admin-client.ts'
import { findInstalledShop, upsertShopInstall } from '../../src/platform/shops-repo.ts'
import { fullSync } from '../../src/sync/full-sync.ts'
import { buildTestApp, STAMP, TEST_API_KEY, TEST_API_SECRET, testDomain, testPool } from './fixtures.ts'

export const SPA_INDEX =
  '<!doctype html><html lang="ja"><head><title>Teiki</title></head><body></body></html>'

export type ShopFixture = { domain: string; id: string; secret: string }

/** Real ids of one shop, as the platform and the mirror have them. */
export type ShopIds = {
  contractId: string
  customerId: string
  lineId: string
  variantId: string
  paymentMethodId: string
  reasonId: string
  exportId: string
  billingRunId: string
  /** A finished batch update of the shop (issue 17). */
  batchId: string
  customerEmail: string
  /** The shop's published theme and its script tag (theme feature). */
  themeId: string
  scriptTagId: string
  sellingPlanGroupId: string
  sellingPlanId: string
  productId: string
  boxId: string
  /** A customer segment (features/cdp). */
  segmentId: string
}

export type TwoShops = {
  pool: pg.Pool
  app: AppInstance
  emulator: Emulator
  /** http://127.0.0.1:<port> of the listening app. */
  base: string
  a: ShopFixture
  b: ShopFixture
  ids: { a: ShopIds; b: ShopIds }
  /** Every request that got past authentication into its route (method, matched route, shop). */
  handled: Array<{ method: string; route: string; shop: string | null; tag?: string }>
  close(): Promise<void>
}

/**
 * The full app (API, SPA document, static files, exports) listening on a port, against an
 * in-process emulator with two installed and synced shops, each with a cancellation reason,
 * a finished CSV export and a billing run. `handled` is filled by a preValidation hook, which
 * runs after authentication and before validation and the handler: a request it records got in.
 */
export async function startTwoShops(label: string): Promise<TwoShops> {
  const pool = testPool()
  const a = { domain: testDomain(`tenant-a-${label}`), secret: `secret-a-${label}-${STAMP}`, id: '' }
  const b = { domain: testDomain(`tenant-b-${label}`), secret: `secret-b-${label}-${STAMP}`, id: '' }
  const emulator = await createEmulator({
    shops: [
      { domain: a.domain, contracts: 12 },
      { domain: b.domain, contracts: 12 },
    ],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
  })
  const url = (await emulator.listen(0)).url
  const dir = mkdtempSync(join(tmpdir(), 'teiki-two-shops-'))
  const webDist = join(dir, 'dist')
  mkdirSync(webDist)
  writeFileSync(join(webDist, 'index.html'), SPA_INDEX)
  writeFileSync(join(webDist, 'app.js'), 'console.log("teiki")')
  const app = await buildTestApp(pool, {
    platform: { adminOrigin: () => url, clientRetry: { maxRetries: 1, retryBaseMs: 1 } },
    webDist,
    dataDir: join(dir, 'data'),
    logger: false,
  })
  const handled: TwoShops['handled'] = []
  app.addHook('preValidation', async (request) => {
    handled.push({
      method: request.method,
      route: request.routeOptions.url ?? '',
      shop: request.shop?.domain ?? null,
      // Tests label their requests with this header to tell which of them got in.
      tag: request.headers['x-test-case'] as string | undefined,
    })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  for (const shop of [a, b]) {
    const install = emulator.install(shop.domain)
    const row = await upsertShopInstall(pool, {
      domain: shop.domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      secretHash: hashSecret(shop.secret),
    })
    shop.id = row.id
    const client = createAdminClient({ shop: shop.domain, accessToken: install.accessToken, origin: url })
    await fullSync(pool, client, (await findInstalledShop(pool, shop.domain))!, { bulk: false })
  }
  const ids = { a: await shopIds(base, emulator, pool, a), b: await shopIds(base, emulator, pool, b) }
  handled.length = 0
  return {
    pool,
    app,
    emulator,
    base,
    a,
    b,
    ids,
    handled,
    async close() {
      await app.close()
      await emulator.close()
      await pool.end()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The shop's first active contract with a line and a payment method, and app-owned rows made through the API. */
async function shopIds(base: string, emulator: Emulator, pool: pg.Pool, shop: ShopFixture): Promise<ShopIds> {
  const state = emulator.store.shop(shop.domain)!
  const contract = state.contracts.find(
    (c) => c.status === 'ACTIVE' && c.lines.length > 0 && c.paymentMethodId,
  )!
  const customer = state.customers.find((c) => c.id === contract.customerId)!
  const auth = `shop=${shop.domain}&secret=${shop.secret}`
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/app-admin${path}?${auth}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as { id: string }
  }
  const reason = await post('/cancellation-reasons', { reason: `${shop.domain} の理由` })
  const box = await post('/boxes', { name: `${shop.domain} のボックス` })
  const segment = await post('/cdp-segment-create', {
    data: { name: `${shop.domain} の全員`, conditions: {} },
  })
  const group = state.sellingPlanGroups[0]!
  const exported = await post('/export-subscription-contracts', { email: customer.email })
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${base}/app-admin/export-subscription-contracts/${exported.id}?${auth}`)
    const job = (await res.json()) as { status: string }
    if (job.status === 'done' || job.status === 'failed') break
    await new Promise((r) => setTimeout(r, 25))
  }
  const run = await pool.query<{ id: string }>(
    `insert into billing_runs (shop_id, trigger, run_at, finished_at) values ($1, 'manual', now(), now())
     returning id::text`,
    [shop.id],
  )
  const batch = await pool.query<{ id: string }>(
    `insert into batch_updates (shop_id, id, kind, params, status, finished_at)
     values ($1, $2, 'product-delete', '{}', 'done', now()) returning id::text`,
    [shop.id, randomUUID()],
  )
  const platform = await emulator.graphql(shop.domain, {
    query: '{ themes(first: 1, roles: [MAIN]) { nodes { id } } }',
  })
  // A shop has no script tag the app did not create: one an earlier version of the app made.
  const tag = await emulator.graphql(shop.domain, {
    query: `mutation { scriptTagCreate(input: { src: "https://cdn.example.jp/${shop.domain}.js" }) {
      scriptTag { id } } }`,
  })
  const online = {
    ...(platform.data as { themes: { nodes: Array<{ id: string }> } }),
    scriptTags: {
      nodes: [(tag.data as { scriptTagCreate: { scriptTag: { id: string } } }).scriptTagCreate.scriptTag],
    },
  }
  const numeric = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1)
  return {
    themeId: numeric(online.themes.nodes[0]!.id),
    scriptTagId: numeric(online.scriptTags.nodes[0]!.id),
    contractId: String(contract.id),
    customerId: String(contract.customerId),
    lineId: String(contract.lines[0]!.id),
    variantId: String(contract.lines[0]!.variantId),
    paymentMethodId: String(contract.paymentMethodId),
    reasonId: reason.id,
    exportId: exported.id,
    billingRunId: run.rows[0]!.id,
    batchId: batch.rows[0]!.id,
    customerEmail: customer.email ?? '',
    sellingPlanGroupId: String(group.id),
    sellingPlanId: String(group.sellingPlans[0]!.id),
    productId: String(state.products[0]!.id),
    boxId: box.id,
    segmentId: segment.id,
  }
}
