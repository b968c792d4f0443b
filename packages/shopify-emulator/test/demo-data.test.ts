import { DELIVERY_TIME_ATTRIBUTE, deliveryTimeSlot, PREFECTURES, prefectureName } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import { MANY_LINE_COUNTS } from '../src/demo-data/many-lines.ts'
import { productImageSvg, publicImageUrl } from '../src/demo-data/product-images.ts'
import { DEMO_BOX_CODE, DEMO_DOMAIN, DEMO_MULTI_CODE, generateShop } from '../src/demo-data.ts'
import { findById } from '../src/store.ts'

const now = new Date('2025-06-01T03:00:00Z')
const demo = () => generateShop({ domain: DEMO_DOMAIN, seed: 7, now, contracts: 320 })

describe('demo data', () => {
  const shop = demo()

  it('is deterministic: same seed and now give deep-equal shops', () => {
    expect(demo()).toEqual(shop)
    expect(generateShop({ domain: DEMO_DOMAIN, seed: 8, now, contracts: 320 })).not.toEqual(shop)
  })

  it('describes the Japanese demo shop with the app installed and paid', () => {
    expect(shop.info).toMatchObject({
      name: '定期便デモストア',
      myshopifyDomain: DEMO_DOMAIN,
      currencyCode: 'JPY',
      ianaTimezone: 'Asia/Tokyo',
      plan: { displayName: 'Basic' },
    })
    expect(shop.info.primaryDomain.url).toBe('https://teiki-demo.example.jp')
    expect(shop.installation.scopes).toEqual(expect.arrayContaining(['read_themes', 'write_themes']))
    expect(shop.installation.subscriptions[0]).toMatchObject({
      name: 'Teiki プロ',
      status: 'ACTIVE',
      test: true,
    })
    const noPlan = generateShop({ domain: DEMO_DOMAIN, seed: 7, now, contracts: 5, withAppPlan: false })
    expect(noPlan.installation.subscriptions).toEqual([])
  })

  it('has at least 320 contracts over all five statuses, ACTIVE the majority', () => {
    expect(shop.contracts.length).toBeGreaterThanOrEqual(320)
    const counts: Record<string, number> = {}
    for (const c of shop.contracts) counts[c.status] = (counts[c.status] ?? 0) + 1
    expect(Object.keys(counts).sort()).toEqual(['ACTIVE', 'CANCELLED', 'EXPIRED', 'FAILED', 'PAUSED'])
    expect(counts.ACTIVE!).toBeGreaterThan(shop.contracts.length / 2)
    // Even a tiny shop shows every status.
    const tiny = generateShop({ domain: 'tiny.myshopify.com', seed: 1, now, contracts: 5 })
    expect(new Set(tiny.contracts.map((c) => c.status)).size).toBe(5)
  })

  it("gives the newest active contract's customer (and every tenth) a second, valid card", () => {
    const cardsOf = (customerId: number) => shop.paymentMethods.filter((pm) => pm.customerId === customerId)
    const newestActive = shop.contracts.filter((c) => c.status === 'ACTIVE').at(-1)!
    const cards = cardsOf(newestActive.customerId)
    expect(cards).toHaveLength(2)
    const [first, second] = cards.map((pm) => pm.instrument)
    expect(second).toMatchObject({ __typename: 'CustomerCreditCard', expiresSoon: false })
    if (first?.__typename === 'CustomerCreditCard' && second?.__typename === 'CustomerCreditCard') {
      expect(second.brand).not.toBe(first.brand)
      expect(second.expiryYear).toBeGreaterThan(now.getUTCFullYear())
    }
    // The contract still charges its first card; the second is there to switch to.
    expect(newestActive.paymentMethodId).toBe(cards[0]!.id)
    const withTwo = shop.customers.filter((c) => cardsOf(c.id).length === 2)
    expect(withTwo.length).toBeGreaterThanOrEqual(Math.floor(shop.customers.length / 12))
    const ids = shop.paymentMethods.map((pm) => pm.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
  })

  it('points product images at the emulator, never an outside CDN', () => {
    for (const p of shop.products) expect(p.imageUrl).toBe(`/cdn/products/${p.handle}.svg`)
    const base = 'http://127.0.0.1:3001'
    expect(publicImageUrl('/cdn/products/uji-matcha.svg', base)).toBe(`${base}/cdn/products/uji-matcha.svg`)
    // A state saved by an earlier version still shows pictures.
    expect(publicImageUrl('https://cdn.example.jp/teiki-demo/products/uji-matcha.jpg', base)).toBe(
      `${base}/cdn/products/uji-matcha.svg`,
    )
    expect(publicImageUrl('https://cdn.shopify.com/x.jpg', base)).toBe('https://cdn.shopify.com/x.jpg')
    expect(productImageSvg('uji-matcha')).toContain('京都宇治抹茶')
    expect(productImageSvg('../etc/passwd')).toBeNull()
  })

  it('uses realistic id sizes', () => {
    const digits = (n: number) => String(n).length
    expect(shop.variants.every((v) => digits(v.id) === 14)).toBe(true)
    expect(shop.contracts.every((c) => digits(c.id) === 11)).toBe(true)
    expect(shop.customers.every((c) => digits(c.id) === 13)).toBe(true)
    expect(shop.orders.every((o) => digits(o.id) === 13)).toBe(true)
    expect(shop.products.every((p) => digits(p.id) === 13)).toBe(true)
  })

  it('keeps every record array sorted by id (the store binary-searches them)', () => {
    for (const list of [shop.customers, shop.contracts, shop.orders, shop.billingAttempts, shop.variants]) {
      const ids = list.map((r) => r.id)
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
    }
  })

  it('has Japanese customers: family-given display names, example e-mails, E.164 mobile phones, prefectures', () => {
    for (const c of shop.customers) {
      expect(c.displayName).toBe(`${c.lastName} ${c.firstName}`)
      expect(c.email).toMatch(/^[a-z.]+\d+@example\.(jp|com)$/)
      if (c.phone) expect(c.phone).toMatch(/^\+81[789]0\d{8}$/)
      expect(c.defaultAddress?.provinceCode).toMatch(/^JP-\d{2}$/)
      expect(c.defaultAddress?.zip).toMatch(/^\d{3}-\d{4}$/)
    }
    expect(new Set(shop.customers.map((c) => c.email)).size).toBe(shop.customers.length)
  })

  it('addresses come from the one list of 47 prefectures: code and name agree, beyond the big cities', () => {
    const codes = new Set(PREFECTURES.map((p) => p.code))
    for (const c of shop.customers) {
      const address = c.defaultAddress!
      expect(codes.has(address.provinceCode!)).toBe(true)
      expect(address.province).toBe(prefectureName(address.provinceCode!))
    }
    // 320 contracts' customers weighted by population reach well past the 16 prefectures of old.
    const big = generateShop({ domain: DEMO_DOMAIN, seed: 7, now, contracts: 3000 })
    expect(new Set(big.customers.map((c) => c.defaultAddress!.provinceCode)).size).toBeGreaterThan(40)
  })

  it('time slots are the app’s: key 配送時間帯 and a label the app reads back as a slot code', () => {
    const slots = shop.contracts.flatMap((c) => c.customAttributes.filter((a) => a.key.includes('時間帯')))
    expect(slots.length).toBeGreaterThan(10)
    for (const slot of slots) {
      expect(slot.key).toBe(DELIVERY_TIME_ATTRIBUTE)
      expect(deliveryTimeSlot(slot.value)).not.toBeNull()
    }
  })

  it('links every contract to an existing customer, payment method, variants and orders', () => {
    for (const c of shop.contracts) {
      expect(findById(shop.customers, c.customerId)).toBeDefined()
      expect(findById(shop.paymentMethods, c.paymentMethodId!)?.customerId).toBe(c.customerId)
      expect(c.lines.length).toBeGreaterThanOrEqual(1)
      // 1–3 lines, but for the big-box contracts (demo-data/many-lines.ts).
      if (c.lines.length > 3) expect(MANY_LINE_COUNTS).toContain(c.lines.length)
      for (const l of c.lines) expect(findById(shop.variants, l.variantId)?.productId).toBe(l.productId)
      expect(c.orderIds[0]).toBe(c.originOrderId)
      for (const id of c.orderIds) expect(findById(shop.orders, id)?.contractId).toBe(c.id)
    }
  })

  it('gives ACTIVE contracts a next billing date within one interval, others a past one', () => {
    const t = now.getTime()
    for (const c of shop.contracts) {
      if (c.status === 'ACTIVE') {
        expect(c.nextBillingDate!).toBeGreaterThan(t)
        const days =
          c.billingPolicy.interval === 'WEEK'
            ? 7 * c.billingPolicy.intervalCount
            : 31 * c.billingPolicy.intervalCount
        expect(c.nextBillingDate! - t).toBeLessThanOrEqual(days * 86_400_000 + 86_400_000)
      } else if (c.status !== 'PAUSED') {
        expect(c.nextBillingDate!).toBeLessThanOrEqual(t)
      }
      expect(c.createdAt).toBeGreaterThan(t - 550 * 86_400_000)
      expect(c.updatedAt).toBeLessThanOrEqual(t)
    }
  })

  it('ends FAILED contracts with failed attempts and succeeded attempts carry an order', () => {
    for (const c of shop.contracts.filter((x) => x.status === 'FAILED')) {
      const last = findById(shop.billingAttempts, c.billingAttemptIds.at(-1)!)!
      expect(last.errorCode).not.toBeNull()
      expect(last.orderId).toBeNull()
      expect(c.lastPaymentStatus).toBe('FAILED')
    }
    for (const a of shop.billingAttempts) expect(a.errorCode === null).toBe(a.orderId !== null)
  })

  it('gives some demo customers a card that requires 3-D Secure, only in the demo shop', () => {
    const flagged = shop.paymentMethods.filter((pm) => pm.requiresAuthentication)
    expect(flagged.length).toBeGreaterThanOrEqual(10)
    for (const pm of flagged) expect(pm.instrument.__typename).toBe('CustomerCreditCard')
    // Some of them pay for active contracts, so the demo's billing meets challenges.
    const flaggedIds = new Set(flagged.map((pm) => pm.id))
    const active = shop.contracts.filter(
      (c) => c.status === 'ACTIVE' && flaggedIds.has(c.paymentMethodId ?? -1),
    )
    expect(active.length).toBeGreaterThan(0)
    // The README's contract (the newest active one) charges at once.
    const newestActive = shop.contracts.filter((c) => c.status === 'ACTIVE').at(-1)!
    expect(flaggedIds.has(newestActive.paymentMethodId ?? -1)).toBe(false)
    const other = generateShop({ domain: 'other.myshopify.com', seed: 7, now, contracts: 320 })
    expect(other.paymentMethods.some((pm) => pm.requiresAuthentication)).toBe(false)
  })

  it('has 8–15 products with 1–4 JPY variants and 3–4 selling plan groups', () => {
    expect(shop.products.length).toBeGreaterThanOrEqual(8)
    expect(shop.products.length).toBeLessThanOrEqual(15)
    for (const p of shop.products) expect(p.variantIds.length).toBeGreaterThanOrEqual(1)
    expect(shop.sellingPlanGroups.length).toBeGreaterThanOrEqual(3)
    expect(shop.sellingPlanGroups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['毎月お届け', '2ヶ月ごと', '毎週お届け']),
    )
  })

  it('the demo shop sells every discount type: none, fixed, recurring, and the multi and box groups', () => {
    const countsByCode = new Map(
      shop.sellingPlanGroups.map((g) => [
        g.merchantCode,
        g.sellingPlans.map((p) => p.pricingPolicies.length),
      ]),
    )
    const all = [...countsByCode.values()].flat()
    expect(all).toEqual(expect.arrayContaining([0, 1, 2]))
    const multi = shop.sellingPlanGroups.find((g) => g.merchantCode === DEMO_MULTI_CODE)!
    expect(multi.name).toBe('回数割定期便')
    // The platform holds the first cycle's 30% off; the app keeps the later cycles' rules.
    expect(multi.sellingPlans[0]!.pricingPolicies).toEqual([
      expect.objectContaining({
        adjustmentType: 'PERCENTAGE',
        adjustmentValue: expect.objectContaining({ percentage: 30 }),
      }),
    ])
    const box = shop.sellingPlanGroups.find((g) => g.merchantCode === DEMO_BOX_CODE)!
    expect(box.productIds.length).toBe(6)
    for (const id of [...multi.productIds, ...box.productIds])
      expect(findById(shop.products, id)).toBeDefined()
    // Other shops (tests, benches) keep only the generated groups.
    const other = generateShop({ domain: 'other.myshopify.com', seed: 7, now, contracts: 20 })
    expect(other.sellingPlanGroups.some((g) => g.merchantCode.startsWith('teiki-demo'))).toBe(false)
  })

  it('has a few big-box contracts of 64 and 130 lines, whose lines are of one box product', () => {
    const big = shop.contracts.filter((c) => c.lines.length > 3)
    expect(big.map((c) => c.lines.length)).toEqual([64])
    const box = shop.products.find((p) => p.handle === 'yoridori-tanpin')!
    const [contract] = big
    expect(contract!.status).toBe('ACTIVE')
    expect(new Set(contract!.lines.map((l) => l.id)).size).toBe(64)
    expect(contract!.lines.slice(3).every((l) => l.productId === box.id)).toBe(true)
    // The box joins the contract's selling plan group.
    const group = shop.sellingPlanGroups.find((g) =>
      g.sellingPlans.some((p) => p.id === contract!.lines[0]!.sellingPlanId),
    )
    expect(group!.productIds).toContain(box.id)
  })

  // How fast it is belongs to the benchmarks (bench/sync.ts prints the generation time).
  it('generates 100,000 contracts, 500 of them big boxes', () => {
    const big = generateShop({ domain: 'big.myshopify.com', seed: 1, now, contracts: 100_000 })
    expect(big.contracts).toHaveLength(100_000)
    const boxes = big.contracts.filter((c) => c.lines.length > 3)
    expect(boxes).toHaveLength(500)
    expect(new Set(boxes.map((c) => c.lines.length))).toEqual(new Set([64, 130]))
  }, 60_000)
})
