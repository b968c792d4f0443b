import { describe, expect, it } from 'vitest'
import { BUYER, shopper } from '../../../packages/shopify-emulator/test/support/storefront-client.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { STAMP, testDomain } from './support/fixtures.ts'

// Issue 23 item 6 and issue 22 item 4, through the app: a contract bought on the emulated
// storefront from anywhere in Japan, with a time slot, reads in 契約詳細 as a contract whose slot
// the merchant set (the checkout writes 配送時間帯 as the app does).

const DOMAIN = testDomain('slot')
const SECRET = 'slot-secret'

const env = useEmulatedApp({ shops: [{ domain: DOMAIN, contracts: 5 }], secret: SECRET, webhooks: true })

describe('a storefront contract’s address and time slot in 契約詳細', () => {
  it('reads 秋田県 and 19時〜21時 as the app’s own', async () => {
    const shop = env.emulator.store.shop(DOMAIN)!
    const group = shop.sellingPlanGroups[0]!
    const variantId = shop.products.find((p) => p.id === group.productIds[0])!.variantIds[0]!
    const browser = shopper(env.url, DOMAIN)
    await browser.form('/cart/add', {
      id: String(variantId),
      selling_plan: String(group.sellingPlans[0]!.id),
    })
    const paid = await browser.form('/checkout', {
      ...BUYER,
      email: `akita.${STAMP}@example.jp`,
      provinceCode: 'JP-05',
      city: '秋田市',
      deliveryTime: '19-21',
    })
    expect(paid.status).toBe(303)
    await env.emulator.idle()
    const contract = shop.contracts.at(-1)!
    const res = await env.app.inject({
      method: 'GET',
      url: `/app-admin/subscriptions/${contract.id}?shop=${DOMAIN}&secret=${SECRET}`,
    })
    expect(res.statusCode).toBe(200)
    const detail = res.json()
    expect(detail.deliveryTime).toBe('19-21')
    expect(detail.deliveryMethod).toMatchObject({ kind: 'shipping', address: { province: '秋田県' } })
  })
})
