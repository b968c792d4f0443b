import { DELIVERY_TIME_ATTRIBUTE, deliveryTimeSlot, PREFECTURES } from '@teiki/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { SHOP, smallEmulator } from './support/harness.ts'
import { BUYER, shopper } from './support/storefront-client.ts'

// Issue 22 and 23: anyone in Japan can buy in the demo store (the checkout offered the 16
// prefectures of the demo data generator), and the time slot chosen at checkout reaches the
// contract as the app itself writes it (key 配送時間帯, the slot's label).

describe('the emulated checkout: where and when to deliver', () => {
  let emulator: Emulator
  let baseUrl: string
  const shop = () => emulator.store.shop(SHOP)!

  beforeAll(async () => {
    emulator = await smallEmulator()
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  /** A shopper with one plan's variant in the cart, at the checkout page. */
  async function atCheckout() {
    const weekly = shop().sellingPlanGroups.find((g) => g.merchantCode === 'weekly')!
    const product = shop().products.find((p) => p.id === weekly.productIds[0])!
    const browser = shopper(baseUrl, SHOP)
    await browser.form('/cart/add', {
      id: String(product.variantIds[0]),
      quantity: '1',
      selling_plan: String(weekly.sellingPlans[0]!.id),
    })
    return { browser, page: (await browser.get('/checkout')).text }
  }

  it('offers all 47 prefectures in the platform’s codes, and the app’s time slots', async () => {
    const { page } = await atCheckout()
    const select = /<select name="provinceCode">(.*?)<\/select>/s.exec(page)![1]!
    const offered = [...select.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)]
    expect(offered.map((m) => [m[1], m[2]])).toEqual(PREFECTURES.map((p) => [p.code, p.name]))
    const slots = /<select name="deliveryTime">(.*?)<\/select>/s.exec(page)![1]!
    expect([...slots.matchAll(/>([^<]+)<\/option>/g)].map((m) => m[1])).toEqual([
      '指定なし',
      '午前中',
      '12時〜14時',
      '14時〜16時',
      '16時〜18時',
      '18時〜20時',
      '19時〜21時',
    ])
  })

  it.each([
    ['JP-02', '青森県'],
    ['JP-31', '鳥取県'],
    ['JP-36', '徳島県'],
  ])('sells to %s (%s): the contract’s address carries the code and the name', async (code, name) => {
    const { browser } = await atCheckout()
    const paid = await browser.form('/checkout', {
      ...BUYER,
      email: `buyer.${code}@example.jp`,
      provinceCode: code,
    })
    expect(paid.status).toBe(303)
    const c = shop().contracts.at(-1)!
    expect(c.deliveryMethod).toMatchObject({ address: { provinceCode: code, province: name } })
    expect(c.customAttributes).toEqual([]) // no slot chosen: none written
  })

  it('writes the chosen slot on the contract as the app writes it in 契約詳細', async () => {
    const { browser } = await atCheckout()
    await browser.form('/checkout', { ...BUYER, email: 'slot@example.jp', deliveryTime: '14-16' })
    const c = shop().contracts.at(-1)!
    expect(c.customAttributes).toEqual([{ key: DELIVERY_TIME_ATTRIBUTE, value: '14時〜16時' }])
    // What the app reads the slot back as (契約詳細's 配送時間帯).
    expect(deliveryTimeSlot(c.customAttributes[0]!.value)).toBe('14-16')
  })

  it('refuses a prefecture or slot that is not one, creating nothing', async () => {
    const { browser } = await atCheckout()
    const before = shop().contracts.length
    for (const [field, value, message] of [
      ['provinceCode', 'JP-48', '都道府県を選んでください。'],
      ['deliveryTime', '25-27', '配送時間帯を選んでください。'],
    ] as const) {
      const refused = await browser.form('/checkout', { ...BUYER, [field]: value })
      expect(refused.status).toBe(400)
      expect(refused.text).toContain(message)
    }
    expect(shop().contracts).toHaveLength(before)
  })
})
