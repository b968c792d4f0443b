import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { DEFAULT_BILLING_SETTINGS, ZErrorResponse, ZThankYouBlock } from '@teiki/contract'
import { DEFAULT_DELIVERY_SETTINGS } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { putBillingSettings } from '../src/billing/settings.ts'
import { saveDeliverySettings } from '../src/features/delivery/repo.ts'
import { saveThankYouSettings } from '../src/features/thank-you/service.ts'
import { signSessionToken } from '../src/http/session-token.ts'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { TEST_API_KEY, TEST_API_SECRET, testDomains, testSessionToken } from './support/fixtures.ts'

// Issue 25 item 5 (ADR 0039): the thank-you block asks the app for the order's subscriptions
// with the checkout's session token. It shows the merchant's message and the next order's days,
// the ones billing then writes on that order; a buyer's token is not a merchant's, another
// shop's order is never read, and an old script is kept (migration 0041) but never run.

const shops = testDomains('thanks', ['one', 'other'])
const env = useBillingEnv({ shops: Object.values(shops).map((domain) => ({ domain, contracts: 20 })) })
const DUE_AT = new Date('2026-11-24T01:00:00Z')
const ORIGIN_ORDER = 7_770_001

/** The token the platform hands a checkout UI extension: `dest` is the bare shop domain. */
function checkoutToken(domain: string, overrides: Record<string, unknown> = {}, secret = TEST_API_SECRET) {
  const now = Math.floor(Date.now() / 1000)
  return signSessionToken(
    {
      dest: domain,
      aud: TEST_API_KEY,
      exp: now + 300,
      nbf: now - 1,
      iat: now - 1,
      jti: randomBytes(8).toString('hex'),
      ...overrides,
    },
    secret,
  )
}

function block(token: string | null, order: string | number = `gid://shopify/Order/${ORIGIN_ORDER}`) {
  return env.app.inject({
    method: 'GET',
    url: `/extensions/thank-you?order=${encodeURIComponent(String(order))}`,
    headers: {
      origin: 'https://extensions.shopifycdn.com',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  })
}

async function arrange(domain: string) {
  const shop = await env.shop(domain)
  const [id] = env.chargeable(domain, 1) as [number]
  const contract = env.emulator.store.shop(domain)!.contracts.find((c) => c.id === id)!
  contract.customAttributes = [
    { key: '配送時間帯', value: '19時〜21時' },
    { key: 'お届け予定日', value: '2026-11-20' },
  ]
  // Only this contract is due: the others bill far away.
  const dates = new Map<number, Date>()
  for (const c of env.emulator.store.shop(domain)!.contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  dates.set(id, DUE_AT)
  await env.setNextBillingDates(domain, dates)
  await env.refreshMirror(domain, [id])
  await env.pool.query(
    'update subscription_contracts set origin_order_id = $3 where shop_id = $1 and id = $2',
    [shop.id, id, ORIGIN_ORDER],
  )
  await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 3 })
  await saveDeliverySettings(env.pool, shop.id, {
    ...DEFAULT_DELIVERY_SETTINGS,
    carrier: 'yamato',
    closedDates: ['2026-11-27'],
  })
  await saveThankYouSettings(env.pool, shop.id, JSON.stringify({ message: '次回もお楽しみに。' }))
  return { shop, contract }
}

describe('GET /extensions/thank-you', () => {
  it('shows the message and the next order’s days — the お届け予定日 billing then writes on it', async () => {
    const { contract } = await arrange(shops.one)
    const res = await block(checkoutToken(shops.one))
    expect(res.statusCode).toBe(200)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    const body = ZThankYouBlock.parse(res.json())
    expect(body).toMatchObject({ message: '次回もお楽しみに。', pending: false })
    expect(body.contracts).toHaveLength(1)
    expect(body.contracts[0]).toMatchObject({
      contractId: String(contract.id),
      firstDeliveryDate: '2026-11-20',
      deliveryTime: '19時〜21時',
      nextBillingDate: '2026-11-24',
      // billed 11月24日 + 3 days = 27日, a day without delivery → 28日
      nextDeliveryDate: '2026-11-28',
    })

    expect(await env.run(shops.one, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const attempt = env.attempts(shops.one, contract.id).at(-1)!
    const order = env.emulator.store.shop(shops.one)!.orders.find((o) => o.id === attempt.orderId)!
    const attrs = Object.fromEntries((order.customAttributes ?? []).map((a) => [a.key, a.value]))
    expect(attrs.お届け予定日).toBe(body.contracts[0]!.nextDeliveryDate)
  })

  it('another shop’s token reads nothing of this shop’s order; an unknown order is pending', async () => {
    const other = ZThankYouBlock.parse((await block(checkoutToken(shops.other))).json())
    expect(other).toEqual({ message: '', pending: true, contracts: [] })
    const unknown = ZThankYouBlock.parse((await block(checkoutToken(shops.one), 123)).json())
    expect(unknown).toMatchObject({ pending: true, contracts: [] })
  })

  it.each([
    ['no token', null],
    ['a merchant’s admin token', testSessionToken(shops.one)],
    ['a token signed with another secret', checkoutToken(shops.one, {}, 'not-the-app-secret')],
    ['an expired token', checkoutToken(shops.one, { exp: Math.floor(Date.now() / 1000) - 60 })],
    ['another app’s token', checkoutToken(shops.one, { aud: 'another-client' })],
    ['a dest that is not a shop', checkoutToken('evil.example.com')],
  ])('refuses %s with 401', async (_name, token) => {
    const res = await block(token)
    expect(res.statusCode).toBe(401)
    expect(ZErrorResponse.parse(res.json()).error.code).toBe('UNAUTHENTICATED')
  })

  it('a buyer’s checkout token is not a merchant’s: every /app-admin route refuses it', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/app-admin/settings',
      headers: { authorization: `Bearer ${checkoutToken(shops.one)}` },
    })
    expect(res.statusCode).toBe(401)
  })

  it('a bad order id is a 400 in Japanese; the preflight allows the bearer header', async () => {
    const bad = await block(checkoutToken(shops.one), 'gid://shopify/Order/1;drop')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toContain('注文IDが正しくありません')
    const preflight = await env.app.inject({ method: 'OPTIONS', url: '/extensions/thank-you' })
    expect(preflight.statusCode).toBe(204)
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization')
  })
})

describe('migration 0041: an old thank-you script is kept, not run', () => {
  it('moves a saved script into legacyScript and leaves "" and the new form alone', async () => {
    const sql = readFileSync(
      new URL('../src/db/migrations/0041_thank_you_settings.sql', import.meta.url),
      'utf8',
    )
    const script = '<script>\n  new Image().src = "https://px.example/cv?o=" + order_id\n</script>'
    const kept = JSON.stringify({ message: 'ようこそ', tags: [] })
    const client = await env.pool.connect()
    try {
      // A temporary shop_settings (searched before the real one) with the three kinds of rows:
      // the migration's statement runs on it and nothing else sees it.
      await client.query('begin')
      await client.query(
        'create temp table shop_settings (like public.shop_settings including defaults) on commit drop',
      )
      await client.query(
        `insert into shop_settings (shop_id, thank_page_script) values (1, $1), (2, '""'), (3, $2)`,
        [JSON.stringify(script), kept],
      )
      await client.query(sql)
      const { rows } = await client.query<{ shop_id: string; thank_page_script: string }>(
        'select shop_id::text, thank_page_script from shop_settings order by shop_id',
      )
      expect(JSON.parse(rows[0]!.thank_page_script)).toEqual({ message: '', tags: [], legacyScript: script })
      expect(rows.slice(1).map((r) => r.thank_page_script)).toEqual(['""', kept])
    } finally {
      await client.query('rollback')
      client.release()
    }
  })
})
