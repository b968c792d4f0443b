import { DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import { addCalendarDays, DEFAULT_DELIVERY_SETTINGS, nextDeliveryDate, toZonedDate } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { putOrderContentText } from '../src/billing/order-content.ts'
import { putBillingSettings } from '../src/billing/settings.ts'
import { saveDeliverySettings } from '../src/features/delivery/repo.ts'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomains } from './support/fixtures.ts'

// Issue 25 item 3: an order billing creates carries what the merchant set — the contract's
// time slot with the carrier's code, this order's お届け予定日, 定期回数, 注文メモ属性 and the
// SKUs after SKU変換 — read back from the platform's (the emulator's) order; a shop's settings
// act on its own orders only; a refused write leaves the charge standing and says so.

const shops = testDomains('oattr', ['set', 'other', 'denied'])
const env = useBillingEnv({ shops: Object.values(shops).map((domain) => ({ domain, contracts: 40 })) })
const DUE_AT = new Date('2026-11-24T01:00:00Z')

const platformShop = (domain: string) => env.emulator.store.shop(domain)!

/** One chargeable contract due at DUE_AT with the given attributes; every other one far out. */
async function arrangeOne(
  domain: string,
  attributes: Array<{ key: string; value: string }>,
  dueAt: Date = DUE_AT,
) {
  const [id] = env.chargeable(domain, 1) as [number]
  const contract = platformShop(domain).contracts.find((c) => c.id === id)!
  contract.customAttributes = attributes
  const dates = new Map<number, Date>()
  for (const c of platformShop(domain).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  dates.set(id, dueAt)
  await env.setNextBillingDates(domain, dates)
  return contract
}

/** The note attributes of the order the contract's newest billing attempt made. */
function billedOrderAttributes(domain: string, contractId: number) {
  const attempt = env.attempts(domain, contractId).at(-1)!
  const order = platformShop(domain).orders.find((o) => o.id === attempt.orderId)!
  return order.customAttributes ?? []
}

async function billedPayload(domain: string, contractId: number) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ payload: Record<string, unknown> }>(
    `select payload from contract_events where shop_id = $1 and contract_id = $2 and type = 'billed'
     order by occurred_at desc limit 1`,
    [shop.id, contractId],
  )
  return rows[0]!.payload
}

describe('a renewal’s order carries what the merchant set', () => {
  it('slot and its code, the date, 定期回数, 注文メモ属性 and 出荷SKU, on the platform’s order', async () => {
    const domain = shops.set
    const shop = await env.shop(domain)
    const contract = await arrangeOne(domain, [
      { key: '配送時間帯', value: '19時〜21時' },
      { key: 'ギフト包装', value: '希望する' },
    ])
    const sku = contract.lines[0]!.sku!
    await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 3 })
    const landing = addCalendarDays(toZonedDate(DUE_AT, 'Asia/Tokyo'), 3)
    await saveDeliverySettings(env.pool, shop.id, {
      ...DEFAULT_DELIVERY_SETTINGS,
      carrier: 'yamato',
      closedDates: [landing],
    })
    await putOrderContentText(env.pool, shop.id, {
      noteAttribute: JSON.stringify([{ key: '定期便', value: 'あり' }]),
      skuConversions: JSON.stringify([{ from: sku, to: `${sku}-R+LEAFLET`, cycles: '2-' }]),
    })
    const ordersBefore = platformShop(domain).orders.filter((o) => o.contractId === contract.id).length

    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const cycle = ordersBefore + 1
    const quantity = contract.lines[0]!.quantity
    const attrs = billedOrderAttributes(domain, contract.id)
    expect(attrs).toEqual(
      expect.arrayContaining([
        { key: '配送時間帯', value: '19時〜21時' },
        { key: 'ギフト包装', value: '希望する' },
        // The billing day plus 3 preparation days is closed: the next open day.
        { key: 'お届け予定日', value: addCalendarDays(landing, 1) },
        { key: '定期便', value: 'あり' },
        { key: '配送時間帯コード', value: '1921' },
        { key: '定期回数', value: String(cycle) },
      ]),
    )
    const ship = attrs.find((a) => a.key === '出荷SKU')!.value
    expect(ship.startsWith(`${sku}-R×${quantity}、LEAFLET×${quantity}`)).toBe(true)
    expect(await billedPayload(domain, contract.id)).toMatchObject({
      orderAttributes: { written: attrs.length },
    })
    // The contract's own attributes are not rewritten per order.
    expect(contract.customAttributes.map((a) => a.key)).toEqual(['配送時間帯', 'ギフト包装'])
  })

  it('a contract with its own お届け予定日 (moved in 契約詳細) gives the order that date, not a past one; another shop’s settings do not act', async () => {
    const domain = shops.other
    const contract = await arrangeOne(domain, [{ key: 'お届け予定日', value: '2026-11-28' }])
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const attrs = billedOrderAttributes(domain, contract.id)
    expect(attrs).toContainEqual({ key: 'お届け予定日', value: '2026-11-28' })
    // The first purchase's date, before this billing day, is not this order's: the billing day
    // plus the shop's preparation days.
    const past = await arrangeOne(
      domain,
      [{ key: 'お届け予定日', value: '2026-11-02' }],
      new Date('2026-11-26T00:30:00Z'),
    )
    expect(await env.run(domain, new Date('2026-11-26T01:00:00Z'))).toMatchObject({ succeeded: 1 })
    expect(billedOrderAttributes(domain, past.id)).toContainEqual({
      key: 'お届け予定日',
      value: nextDeliveryDate(
        DEFAULT_DELIVERY_SETTINGS,
        '2026-11-26',
        DEFAULT_BILLING_SETTINGS.deliveryPrepDays,
      ),
    })
    // The first shop's note attribute and SKU conversion are not this shop's.
    expect(attrs.map((a) => a.key)).not.toContain('定期便')
    expect(attrs.map((a) => a.key)).not.toContain('出荷SKU')
    expect(attrs.map((a) => a.key)).not.toContain('配送時間帯コード')
  })

  it('without write_orders the charge stands, and the history says why the order has no attributes', async () => {
    const domain = shops.denied
    const contract = await arrangeOne(domain, [{ key: '配送時間帯', value: '午前中' }])
    const installation = platformShop(domain).installation
    installation.scopes = installation.scopes.filter((s) => s !== 'write_orders')
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const attrs = billedOrderAttributes(domain, contract.id)
    // What the platform put on the order (the contract's), nothing of the app's.
    expect(attrs).toEqual([{ key: '配送時間帯', value: '午前中' }])
    const payload = await billedPayload(domain, contract.id)
    expect(String((payload.orderAttributes as { error: string }).error)).toContain('write_orders')
  })
})
