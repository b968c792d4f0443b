import { ZOrderHistoryResponse } from '@teiki/contract'
import { orderHistoryMessage, ordersCompleteFrom } from '@teiki/domain'
import { toGid } from '@teiki/shopify-emulator'
import { beforeAll, describe, expect, it } from 'vitest'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { fullSync, type SyncSummary } from '../src/sync/full-sync.ts'
import { syncSummaryLine } from '../src/sync/sync-message.ts'
import { useEmulatedApp } from './support/emulated-app.ts'

// Issue 23: without read_all_orders the platform gives the app the last 60 days of orders. The
// first sync records from when it holds every order and says so; GET /order-history gives the
// screens the date (「…以降の注文に基づく集計です」); a shop that grants the scope later gets
// its older orders at the next sync; a webhook about an order the app may not read changes
// nothing. On the kinder emulator before, the first sync mirrored every order and nothing said so.

const tag = `${process.pid}-${Date.now().toString(36)}`
const ALL = `history-all-${tag}.myshopify.com`
const LIMITED = `history-60-${tag}.myshopify.com`
const SECRET = 'order-history-secret'
const WINDOW = 60 * 86_400_000

const summaries: Record<string, SyncSummary> = {}
const bounds: Record<string, { before: number; after: number }> = {}

async function sync(domain: string) {
  const shop = (await findInstalledShop(env.pool, domain))!
  const before = Date.now()
  const summary = await fullSync(env.pool, env.clients[domain]!, shop)
  bounds[domain] = { before, after: Date.now() }
  return summary
}
async function mirroredOrderIds(domain: string): Promise<Set<string>> {
  const { rows } = await env.pool.query<{ id: string }>('select id::text from orders where shop_id = $1', [
    env.shopIds[domain],
  ])
  return new Set(rows.map((r) => r.id))
}
async function readableFrom(domain: string): Promise<Date | null> {
  const { rows } = await env.pool.query<{ orders_readable_from: Date | null }>(
    'select orders_readable_from from shops where id = $1',
    [env.shopIds[domain]],
  )
  return rows[0]!.orders_readable_from
}
const history = async (domain: string) => {
  const res = await env.app.inject({ url: `/app-admin/order-history?shop=${domain}&secret=${SECRET}` })
  expect(res.statusCode, res.body).toBe(200)
  return ZOrderHistoryResponse.parse(res.json())
}
/** The platform's orders of the shop's contracts, by age at `at`. */
function contractOrders(domain: string, at: number) {
  const shop = env.emulator.store.shop(domain)!
  const ids = new Set(shop.contracts.flatMap((c) => c.orderIds))
  const orders = shop.orders.filter((o) => ids.has(o.id))
  return {
    old: orders.filter((o) => o.createdAt < at - WINDOW - 60_000),
    recent: orders.filter((o) => o.createdAt > at - WINDOW + 60_000),
  }
}

const env = useEmulatedApp({
  shops: [
    { domain: ALL, contracts: 30 },
    { domain: LIMITED, contracts: 30, declinedScopes: ['read_all_orders'] },
  ],
  secret: SECRET,
  webhooks: true,
  // Every GET /order-history asks the platform whether read_all_orders was granted since.
  appOptions: { orderHistoryRecheckMs: 0 },
})
beforeAll(async () => {
  summaries[ALL] = await sync(ALL)
  summaries[LIMITED] = await sync(LIMITED)
})

describe('the first sync without read_all_orders', () => {
  it('mirrors the orders of the last 60 days only, as the platform gives them', async () => {
    const { old, recent } = contractOrders(LIMITED, bounds[LIMITED]!.before)
    expect(old.length).toBeGreaterThan(recent.length)
    expect(recent.length).toBeGreaterThan(0)
    const mirrored = await mirroredOrderIds(LIMITED)
    for (const o of recent) expect(mirrored.has(String(o.id))).toBe(true)
    for (const o of old) expect(mirrored.has(String(o.id))).toBe(false)
  })

  it('records from when it holds every order (its end − 60 days) and says so in the sync line', async () => {
    const from = (await readableFrom(LIMITED))!
    expect(from.getTime()).toBeGreaterThanOrEqual(bounds[LIMITED]!.before - WINDOW)
    expect(from.getTime()).toBeLessThanOrEqual(bounds[LIMITED]!.after - WINDOW)
    expect(summaries[LIMITED]!.ordersReadableFrom).toEqual(from)
    const line = syncSummaryLine(LIMITED, summaries[LIMITED]!, null, 'Asia/Tokyo')
    const completeFrom = ordersCompleteFrom(from, 'Asia/Tokyo')
    expect(line).toMatch(new RegExp(`^${LIMITED} を同期しました: 契約 30 件`))
    expect(line).toContain(
      '以降の分を読み込みました（全期間の注文の読み取り read_all_orders が許可されていない',
    )
    expect(line).toContain(`「${orderHistoryMessage(completeFrom)}」`)
  })

  it('GET /order-history gives the screens the date their figures are complete from', async () => {
    const from = (await readableFrom(LIMITED))!
    const completeFrom = ordersCompleteFrom(from, 'Asia/Tokyo')
    const body = await history(LIMITED)
    expect(body).toEqual({
      complete: false,
      completeFrom,
      message: orderHistoryMessage(completeFrom),
      detail: expect.stringContaining('全期間の注文の読み取り（read_all_orders）が許可されていない'),
      readingOlderOrders: false,
    })
    // The date is the sync's, not a constant: the day after the 60-day instant (Tokyo).
    const [y, m, d] = completeFrom.split('-').map(Number)
    expect(body.message).toBe(`${y}年${m}月${d}日以降の注文に基づく集計です`)
  })
})

describe('the first sync with read_all_orders', () => {
  it('mirrors every order and records nothing missing', async () => {
    const { old, recent } = contractOrders(ALL, bounds[ALL]!.before)
    const mirrored = await mirroredOrderIds(ALL)
    for (const o of [...old, ...recent]) expect(mirrored.has(String(o.id))).toBe(true)
    expect(await readableFrom(ALL)).toBeNull()
    expect(summaries[ALL]!.ordersReadableFrom).toBeNull()
    expect(syncSummaryLine(ALL, summaries[ALL]!, null)).not.toContain('注文は')
    expect(await history(ALL)).toEqual({
      complete: true,
      completeFrom: null,
      message: null,
      detail: null,
      readingOlderOrders: false,
    })
  })
})

describe('an order the app may not read', () => {
  it('a refund webhook about it reads nothing and writes nothing', async () => {
    const { old } = contractOrders(LIMITED, Date.now())
    const order = old.find((o) => o.cancelledAt === null)!
    const installation = env.emulator.store.shop(LIMITED)!.installation
    const declined = [...installation.scopes]
    // Refunded on the platform by someone who may (the merchant in the admin): the app is sent
    // refunds/create and orders/updated, and reads the order with its own token, without the scope.
    env.emulator.setAccessScopes(LIMITED, [...declined, 'read_all_orders'])
    const refunded = await env.emulator.graphql(LIMITED, {
      query: `mutation($input: RefundInput!) { refundCreate(input: $input) { userErrors { message } } }`,
      variables: {
        input: {
          orderId: toGid('Order', order.id),
          transactions: [
            { orderId: toGid('Order', order.id), kind: 'REFUND', gateway: 'manual', amount: '100' },
          ],
        },
      },
    })
    env.emulator.setAccessScopes(LIMITED, declined)
    expect(refunded.errors).toBeUndefined()
    await env.emulator.idle()
    const deliveries = env.emulator.webhooks.deliveries.filter(
      (d) => d.shop === LIMITED && ['refunds/create', 'orders/updated'].includes(d.topic),
    )
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ])
    expect((await mirroredOrderIds(LIMITED)).has(String(order.id))).toBe(false)
  })
})

describe('read_all_orders granted after the first sync', () => {
  it('the screens’ next look starts reading every contract’s older orders; when done the banners go', async () => {
    const installation = env.emulator.store.shop(LIMITED)!.installation
    env.emulator.setAccessScopes(LIMITED, [...installation.scopes, 'read_all_orders'])
    const before = Date.now()
    const reading = await history(LIMITED)
    expect(reading).toMatchObject({ complete: false, readingOlderOrders: true })
    expect(reading.detail).toContain('それより前の注文を読み込んでいます')
    await expect
      .poll(async () => (await history(LIMITED)).complete, { timeout: 60_000, interval: 100 })
      .toBe(true)
    const { old, recent } = contractOrders(LIMITED, before)
    const mirrored = await mirroredOrderIds(LIMITED)
    for (const o of [...old, ...recent]) expect(mirrored.has(String(o.id))).toBe(true)
    expect(await readableFrom(LIMITED)).toBeNull()
    // The scopes the app keeps now include it; the sync after that reads only what changed.
    const shop = (await findInstalledShop(env.pool, LIMITED))!
    expect(shop.scopes).toContain('read_all_orders')
    expect((await sync(LIMITED)).olderOrdersRead).toBeUndefined()
  })

  it('a sync that finds the scope granted reads the older orders and says so', async () => {
    // The same path, run by a start-up sync (the demo shop) rather than by the screens.
    await env.pool.query(`update shops set orders_readable_from = now() - interval '60 days' where id = $1`, [
      env.shopIds[LIMITED],
    ])
    const summary = await sync(LIMITED)
    expect(summary.olderOrdersRead).toBe(true)
    expect(summary.ordersReadableFrom).toBeNull()
    expect(syncSummaryLine(LIMITED, summary, new Date())).toContain('それより前の注文も読み込みました')
    expect(await readableFrom(LIMITED)).toBeNull()
  })
})
