import { DEFAULT_BILLING_SETTINGS, ZShippingCsvQuery, ZShippingForecastQuery } from '@teiki/contract'
import { DEFAULT_DELIVERY_SETTINGS } from '@teiki/domain'
import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { putOrderContentText } from '../src/billing/order-content.ts'
import { putBillingSettings } from '../src/billing/settings.ts'
import { saveDeliverySettings } from '../src/features/delivery/repo.ts'
import { shippingCsv, YAMATO_B2_HEADER } from '../src/features/shipping/csv.ts'
import { getShippingForecast } from '../src/features/shipping/service.ts'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomains } from './support/fixtures.ts'

// Issue 25 item 4: 出荷予定 lists the orders billing will create, on the お届け予定日, with the
// SKUs after SKU変換 and the slot's carrier code — and billing then writes exactly those on the
// platform's order. The CSV carries the same, in Shift_JIS or UTF-8, and another shop's
// contracts are never in it.

const shops = testDomains('ship', ['one', 'other'])
const env = useBillingEnv({ shops: Object.values(shops).map((domain) => ({ domain, contracts: 30 })) })
const DUE_AT = new Date('2026-11-24T01:00:00Z')
const NOW = new Date('2026-11-23T03:00:00Z') // 2026-11-23 12:00 JST

const platformShop = (domain: string) => env.emulator.store.shop(domain)!

async function arrange(domain: string) {
  const [id] = env.chargeable(domain, 1) as [number]
  const contract = platformShop(domain).contracts.find((c) => c.id === id)!
  contract.customAttributes = [{ key: '配送時間帯', value: '19時〜21時' }]
  const dates = new Map<number, Date>()
  for (const c of platformShop(domain).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  dates.set(id, DUE_AT)
  await env.setNextBillingDates(domain, dates)
  await env.refreshMirror(domain, [id])
  return contract
}

async function csvText(domain: string, query: Record<string, string>) {
  const shop = await env.shop(domain)
  const chunks: Buffer[] = []
  for await (const chunk of shippingCsv(env.pool, shop, ZShippingCsvQuery.parse(query), NOW))
    chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('出荷予定: the orders billing will create, as billing creates them', () => {
  it('the forecast’s day, slot code and SKUs are the ones billing writes on the order', async () => {
    const domain = shops.one
    const shop = await env.shop(domain)
    const contract = await arrange(domain)
    const sku = contract.lines[0]!.sku!
    const quantity = contract.lines[0]!.quantity
    await putBillingSettings(env.pool, shop.id, { ...DEFAULT_BILLING_SETTINGS, deliveryPrepDays: 2 })
    await saveDeliverySettings(env.pool, shop.id, { ...DEFAULT_DELIVERY_SETTINGS, carrier: 'yamato' })
    await putOrderContentText(env.pool, shop.id, {
      noteAttribute: '[]',
      skuConversions: JSON.stringify([{ from: sku, to: `${sku}-R+LEAFLET`, cycles: '2-' }]),
    })

    const forecast = await getShippingForecast(env.pool, shop, 7, NOW)
    expect(forecast.from).toBe('2026-11-23')
    expect(forecast.days).toHaveLength(7)
    expect(forecast.orders).toBe(1)
    const day = forecast.days.find((d) => d.orders > 0)!
    expect(day.date).toBe('2026-11-26') // billed 11月24日 + 2 days
    expect(day.slots).toEqual([{ slot: '19時〜21時', code: '1921', orders: 1 }])
    const otherLines = contract.lines.slice(1)
    const units = Object.fromEntries(day.units.map((u) => [u.sku, u.quantity]))
    expect(units[`${sku}-R`]).toBe(quantity + otherLines.filter((l) => l.sku === `${sku}-R`).length)
    expect(units.LEAFLET).toBe(quantity)

    const csv = iconv.decode(await csvText(domain, { days: '7' }), 'cp932').split('\r\n')
    expect(csv[0]).toBe(
      'お届け予定日,請求予定日,配送時間帯,配送時間帯コード,定期回数,契約ID,お届け先氏名,郵便番号,住所,電話番号,出荷SKU,商品',
    )
    expect(csv).toHaveLength(3) // header, one order, the final line break
    const row = csv[1]!.split(',')
    // Windows-31J writes 〜 as its own wave dash ～ (what Excel on Japanese Windows shows).
    expect(row.slice(0, 4)).toEqual(['2026/11/26', '2026/11/24', '19時～21時', '1921'])
    expect(row[5]).toBe(String(contract.id))

    // Billing creates that order: same date, same code, same 定期回数, same SKUs.
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, succeeded: 1 })
    const attempt = env.attempts(domain, contract.id).at(-1)!
    const order = platformShop(domain).orders.find((o) => o.id === attempt.orderId)!
    const attrs = Object.fromEntries((order.customAttributes ?? []).map((a) => [a.key, a.value]))
    expect(attrs.お届け予定日).toBe('2026-11-26')
    expect(attrs.配送時間帯コード).toBe('1921')
    expect(attrs.定期回数).toBe(row[4])
    expect(attrs.出荷SKU).toBe(row[10])
  })

  it('the B2 layout: its 33 columns, Yamato’s slot code, dates with slashes; UTF-8 starts with a BOM', async () => {
    const bytes = await csvText(shops.one, { days: '7', layout: 'yamato-b2', encoding: 'utf-8' })
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.subarray(3).toString('utf8').split('\r\n')
    expect(lines[0]!.split(',')).toEqual(YAMATO_B2_HEADER)
    expect(YAMATO_B2_HEADER).toHaveLength(33)
  })

  it('another shop’s contracts are not in the forecast; a shop with none due lists empty days', async () => {
    const shop = await env.shop(shops.other)
    const dates = new Map<number, Date>()
    for (const c of platformShop(shops.other).contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
    await env.setNextBillingDates(shops.other, dates)
    const forecast = await getShippingForecast(env.pool, shop, 14, NOW)
    expect(forecast.days).toHaveLength(14)
    expect(forecast.orders).toBe(0)
    expect(forecast.days.every((d) => d.units.length === 0 && d.slots.length === 0)).toBe(true)
  })

  it('refuses a period other than 7, 14 or 31 days and an unknown layout, in Japanese', () => {
    expect(ZShippingForecastQuery.safeParse({ days: '10' }).error?.issues[0]?.message).toBe(
      '期間は7、14、31日のいずれかで指定してください',
    )
    expect(ZShippingCsvQuery.safeParse({ layout: 'sagawa' }).error?.issues[0]?.message).toBe(
      'レイアウトは standard か yamato-b2 を指定してください',
    )
    expect(ZShippingForecastQuery.parse({})).toEqual({ days: 7 })
  })
})
