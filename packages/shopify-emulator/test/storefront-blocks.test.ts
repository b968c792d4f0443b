import { describe, expect, it } from 'vitest'
import { renderAppBlock } from '../src/storefront/blocks.ts'
import { productDrop } from '../src/storefront/drops.ts'
import { createStorefrontLiquid, formatMoney, loadExtension } from '../src/storefront/liquid.ts'
import { coffeeShop, PLAN } from './support/storefront-fixture.ts'
import { elements, visibleText } from './support/visible-text.ts'

// The theme app extension's blocks (extensions/teiki-subscriptions) rendered with the Liquid the
// emulated storefront runs: what a shopper reads, in Japanese, for each discount type.

const ext = loadExtension()
const routes = { cart_add_url: '/cart/add', cart_url: '/cart', root_url: '/' }
const engine = (locale = 'ja') =>
  createStorefrontLiquid(ext, {
    locale,
    moneyFormat: '¥{{amount_no_decimals}}',
    assetUrl: (f) => `/assets/${f}`,
  })

async function plansBlock(
  opts: { variantId?: number; sellingPlanId?: number; settings?: object; locale?: string } = {},
) {
  const { shop, coffee } = coffeeShop()
  const product = productDrop(shop, coffee, opts)
  return renderAppBlock(engine(opts.locale), ext, {
    handle: 'subscription-plans',
    blockId: 'teiki_plans',
    sectionId: 'main',
    settings: { ...opts.settings },
    page: { product, routes },
  })
}

/** Each option of the plans block as the shopper reads it. */
const options = (html: string) => elements(html, 'label', 'teiki-plans__option').map(visibleText)

describe('money filter', () => {
  it.each([
    [198000, '¥{{amount_no_decimals}}', '¥1,980'],
    [0, '¥{{amount_no_decimals}}', '¥0'],
    [123456789, '¥{{amount_no_decimals}}', '¥1,234,568'], // subunits round to whole yen
    [123450, 'US$ {{amount}}', 'US$ 1,234.50'],
    [123450, '{{amount_with_comma_separator}} €', '1.234,50 €'],
  ])('%d with %s is %s', (cents, format, text) => {
    expect(formatMoney(cents, format)).toBe(text)
  })
})

describe('subscription-plans block (product page)', () => {
  it('lists one-time purchase and every plan with each cycle’s price in yen, in Japanese', async () => {
    expect(options(await plansBlock())).toEqual([
      '通常購入（1回のみ） ¥1,980',
      '毎月お届け 毎回 ¥1,980', // no discount
      '2ヶ月ごと（10%オフ） 毎回 ¥1,782 ¥1,980', // fixed percentage, the regular price struck through
      '毎月15日（300円引き） 毎回 ¥1,680 ¥1,980', // fixed amount off
      '初回20%オフ 1回目 ¥1,584 ¥1,980 2回目以降 ¥1,782', // recurring: the first order only, then later
      '3回まで980円 1〜3回目 ¥980 ¥1,980 4回目以降 ¥1,782', // recurring after cycle 3, from a fixed price
    ])
  })

  it('strikes the regular price through and names the groups when the product is in several', async () => {
    const html = await plansBlock()
    expect(html).toContain('<s class="teiki-price__regular">¥1,980</s>')
    expect(elements(html, 'p', 'teiki-plans__group').map(visibleText)).toEqual([
      '毎月お届け',
      '2ヶ月ごと',
      '毎月15日',
      '初回おためし',
    ])
  })

  it('submits the chosen plan as selling_plan with the theme’s product form, the first plan chosen', async () => {
    const html = await plansBlock()
    const radios = [
      ...html.matchAll(/<input type="radio" name="selling_plan" value="(\d*)" form="([^"]+)"( checked)?>/g),
    ]
    expect(radios.map((m) => [m[1], m[2], Boolean(m[3])])).toEqual([
      ['', 'product-form-main', false],
      [String(PLAN.none), 'product-form-main', true],
      [String(PLAN.percent), 'product-form-main', false],
      [String(PLAN.amount), 'product-form-main', false],
      [String(PLAN.recurring), 'product-form-main', false],
      [String(PLAN.recurringAfter3), 'product-form-main', false],
    ])
  })

  it('keeps the plan in the URL (?selling_plan=) chosen, and one-time when the merchant turns preselection off', async () => {
    const chosen = await plansBlock({ sellingPlanId: PLAN.recurring })
    expect(chosen).toMatch(new RegExp(`value="${PLAN.recurring}" form="product-form-main" checked`))
    const oneTime = await plansBlock({ settings: { preselect_subscription: false } })
    expect(oneTime).toContain('value="" form="product-form-main" checked')
    const otherForm = await plansBlock({ settings: { form_id: 'product-form-custom' } })
    expect(otherForm).toContain('data-form="product-form-custom"')
  })

  it('renders every variant’s prices and shows the selected variant’s only (nothing to fetch or move)', async () => {
    const html = await plansBlock({ variantId: 12 })
    expect(options(html)).toEqual([
      '通常購入（1回のみ） ¥4,280',
      '毎月お届け 毎回 ¥4,280',
      '2ヶ月ごと（10%オフ） 毎回 ¥3,852 ¥4,280',
      '毎月15日（300円引き） 毎回 ¥3,980 ¥4,280',
      '初回20%オフ 1回目 ¥3,424 ¥4,280 2回目以降 ¥3,852',
      '3回まで980円 1〜3回目 ¥980 ¥4,280 4回目以降 ¥3,852',
    ])
    // The other variant is in the page, hidden, with the same number of lines per option.
    expect(html.match(/data-variant="11" hidden/g)).toHaveLength(6)
    expect(html).not.toMatch(/data-variant="12" hidden/)
  })

  it('speaks the storefront’s language: English from en.default.json', async () => {
    expect(options(await plansBlock({ locale: 'en' })).slice(0, 1)).toEqual(['One-time purchase ¥1,980'])
    expect(options(await plansBlock({ locale: 'en' }))[4]).toBe(
      '初回20%オフ Delivery 1 ¥1,584 ¥1,980 From delivery 2 ¥1,782',
    )
  })

  it('renders nothing for a product sold without selling plans', async () => {
    const { shop, coffee } = coffeeShop()
    shop.sellingPlanGroups = []
    const html = await renderAppBlock(engine(), ext, {
      handle: 'subscription-plans',
      blockId: 'b',
      sectionId: 'main',
      page: { product: productDrop(shop, coffee), routes },
    })
    expect(visibleText(html)).toBe('')
  })
})

describe('subscription-box block', () => {
  async function boxBlock(boxes: unknown, settings: object = {}) {
    const { shop, coffee, tea } = coffeeShop()
    return renderAppBlock(engine(), ext, {
      handle: 'subscription-box',
      blockId: 'teiki_box',
      sectionId: 'main',
      settings: { ...settings },
      page: {
        routes,
        appMetafields: { teiki: { boxes: { type: 'json', value: boxes } } },
        allProducts: {
          'organic-drip-coffee': productDrop(shop, coffee),
          'uji-matcha': productDrop(shop, tea),
        },
      },
    })
  }
  const box = (id: string, name: string) => ({
    id,
    name,
    minSelection: 2,
    maxSelection: 3,
    sellingPlanIds: [String(PLAN.recurring), String(PLAN.none)],
    productHandles: ['organic-drip-coffee', 'uji-matcha', 'no-such-product'],
  })

  it('shows the box’s rule, its plans, its products with the first plan’s prices, and the count', async () => {
    const html = await boxBlock([box('7', 'よりどり2〜3品ボックス')])
    const text = visibleText(html)
    expect(text).toContain('よりどり2〜3品ボックス 2〜3個お選びください')
    expect(elements(html, 'label', 'teiki-plans__option').map(visibleText)).toEqual([
      '毎月お届け',
      '初回20%オフ',
    ])
    expect(elements(html, 'li', 'teiki-box__item').map(visibleText)).toEqual([
      '有機ドリップコーヒー定期便 毎回 ¥1,980',
      '京都宇治抹茶 毎回 ¥2,160',
    ])
    expect(text).toContain('0 / 3個 選択中')
    expect(html).toMatch(/data-min="2" data-max="3" data-cart="\/cart"/)
    // The other plan's prices are rendered for the script to show when the shopper picks it.
    expect(html).toContain(`data-plan="${PLAN.recurring}" hidden`)
    expect(html).toMatch(/<button type="submit"[^>]*disabled>まとめてカートに追加<\/button>/)
  })

  it('asks for an exact number when the minimum is the maximum', async () => {
    const exact = { ...box('7', '3品ボックス'), minSelection: 3, maxSelection: 3 }
    expect(visibleText(await boxBlock([exact]))).toContain('3品ボックス 3個お選びください')
  })

  it('shows the box set in the theme editor, and says so when there is none', async () => {
    const two = [box('7', 'ボックスA'), box('8', 'ボックスB')]
    expect(visibleText(await boxBlock(two, { box_id: '8' }))).toContain('ボックスB')
    expect(visibleText(await boxBlock(two, { box_id: '9' }))).toBe('このボックスは現在ご利用いただけません。')
    expect(visibleText(await boxBlock(undefined))).toBe('このボックスは現在ご利用いただけません。')
  })
})
