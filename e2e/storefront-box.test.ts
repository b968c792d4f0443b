import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import { type Browser, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/web-vitals.ts'
import { ROOT } from './support/app-process.ts'

// The box block's script in Chromium, on the emulated store: the box as the app publishes it
// (app-data metafield teiki.boxes), the minimum and maximum enforced, the chosen products added
// to the cart together with the chosen plan; and the same rule held at the cart by the app's box
// rules function (extensions/teiki-box-rules, activated as the app activates it: validationCreate
// with the rules in the validation's metafield), so a box with too few products is refused even
// when the page's own check is bypassed.

const ARTIFACTS = join(ROOT, 'artifacts/e2e')
const DOMAIN = 'box-e2e.myshopify.com'
let emulator: Emulator
let browser: Browser
let page: Page
let productUrl = ''
let planName = ''

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true })
  // The template is arranged with themeFilesUpsert, as a theme developer's tool would (exempt).
  emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: 0 }],
    throttle: false,
    themeFilesExemption: true,
  })
  const { url } = await emulator.listen(0)
  const shop = emulator.store.shop(DOMAIN)!
  const group = shop.sellingPlanGroups.find((g) => g.productIds.length >= 3)!
  planName = group.sellingPlans[0]!.name
  const handles = group.productIds.slice(0, 3).map((id) => shop.products.find((p) => p.id === id)!.handle)
  const gql = async (query: string, variables: object = {}) => {
    const res = await emulator.graphql(DOMAIN, { query, variables: variables as Record<string, unknown> })
    if (res.errors) throw new Error(JSON.stringify(res.errors))
    return res.data as Record<string, { id: string; nodes: Array<{ id: string }> }>
  }
  const owner = (await gql('{ currentAppInstallation { id } }')).currentAppInstallation!.id
  const box = {
    id: '1',
    name: 'よりどり定期便ボックス',
    minSelection: 2,
    maxSelection: 2,
    sellingPlanIds: group.sellingPlans.map((p) => String(p.id)),
    productHandles: handles,
  }
  await gql(
    `mutation($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { message } } }`,
    { m: [{ ownerId: owner, namespace: 'teiki', key: 'boxes', type: 'json', value: JSON.stringify([box]) }] },
  )
  // What apps/server/src/features/boxes/box-rules.ts does on a box save.
  const fns = await gql(
    '{ shopifyFunctions(first: 25, apiType: "cart_checkout_validation") { nodes { id } } }',
  )
  const rules = { boxes: [{ id: box.id, name: box.name, minSelection: 2, maxSelection: 2 }] }
  const created = await gql(
    `mutation($v: ValidationCreateInput!) { validationCreate(validation: $v) { validation { id } userErrors { message } } }`,
    {
      v: {
        functionId: fns.shopifyFunctions!.nodes[0]!.id,
        enable: true,
        metafields: [{ namespace: 'teiki', key: 'box_rules', type: 'json', value: JSON.stringify(rules) }],
      },
    },
  )
  expect(JSON.stringify(created)).not.toContain('"message"')
  const theme = (await gql('{ themes(first: 1, roles: [MAIN]) { nodes { id } } }')).themes!.nodes[0]!.id
  const uid = /^uid\s*=\s*"([^"]+)"/m.exec(
    (await import('node:fs')).readFileSync(
      join(ROOT, 'extensions/teiki-subscriptions/shopify.extension.toml'),
      'utf8',
    ),
  )![1]
  const template = {
    sections: {
      main: {
        type: 'main-product',
        blocks: { box: { type: `shopify://apps/teiki/blocks/subscription-box/${uid}`, settings: {} } },
        block_order: ['box'],
      },
    },
    order: ['main'],
  }
  await gql(
    `mutation($id: ID!, $f: [OnlineStoreThemeFilesUpsertFileInput!]!) { themeFilesUpsert(themeId: $id, files: $f) { userErrors { message } } }`,
    {
      id: theme,
      f: [{ filename: 'templates/product.json', body: { type: 'TEXT', value: JSON.stringify(template) } }],
    },
  )
  productUrl = `${url}/s/${DOMAIN}/products/${handles[0]}`
  browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, '--lang=ja'] })
  page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
})

afterAll(async () => {
  await browser?.close()
  await emulator?.close()
})

describe('box block', () => {
  it('enables まとめてカートに追加 from the minimum, stops at the maximum, and adds the box with its plan', async () => {
    await page.goto(productUrl)
    const box = page.locator('[data-teiki-box]')
    await box.waitFor()
    const submit = box.getByRole('button', { name: 'まとめてカートに追加' })
    const items = box.locator('input[name="items"]')
    const count = box.locator('.teiki-box__count')
    expect(await items.count()).toBe(3)
    expect(await count.innerText()).toBe('0 / 2個 選択中')
    expect(await submit.isDisabled()).toBe(true)
    await items.nth(0).check()
    expect(await submit.isDisabled()).toBe(true) // below the minimum of 2
    await items.nth(1).check()
    expect(await count.innerText()).toBe('2 / 2個 選択中')
    expect(await submit.isDisabled()).toBe(false)
    expect(await items.nth(2).isDisabled()).toBe(true) // the maximum: no third product
    await items.nth(1).uncheck()
    expect(await items.nth(2).isDisabled()).toBe(false)
    await items.nth(2).check()
    await page.screenshot({ path: join(ARTIFACTS, 'storefront-box.png'), fullPage: true })
    await submit.click()
    await page.waitForURL(/\/cart$/)
    const cart = await page.locator('table').innerText()
    expect(cart.match(new RegExp(`定期購入: ${planName.replace(/[()（）]/g, '.')}`, 'g'))).toHaveLength(2)
  })
  it('refuses a box with too few products at the cart, with the rule’s message, when the page’s check is bypassed', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'ja-JP' })
    try {
      await fresh.goto(productUrl)
      const box = fresh.locator('[data-teiki-box]')
      await box.waitFor()
      await box.locator('input[name="items"]').nth(0).check()
      const submit = box.getByRole('button', { name: 'まとめてカートに追加' })
      expect(await submit.isDisabled()).toBe(true) // the block holds one product back itself
      await submit.evaluate((b) => {
        ;(b as HTMLButtonElement).disabled = false
      })
      await submit.click()
      const message = box.locator('.teiki-box__message')
      await expect
        .poll(() => message.innerText())
        .toBe('「よりどり定期便ボックス」は2個ちょうどお選びください（現在1個）')
      await fresh.screenshot({ path: join(ARTIFACTS, 'storefront-box-refused.png'), fullPage: true })
      // Nothing reached the cart, and posting to it directly is refused the same way.
      const cartUrl = productUrl.replace(/\/products\/.*$/, '/cart')
      const direct = await fresh.evaluate(async (url) => {
        const variant = document.querySelector<HTMLInputElement>('input[name="items"]')!.value
        const plan = document.querySelector<HTMLInputElement>('input[name="selling_plan"]:checked')!.value
        const res = await fetch(`${url}/add.js`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            items: [
              {
                id: Number(variant),
                quantity: 1,
                selling_plan: Number(plan),
                properties: { _box: 'x', _box_id: '1' },
              },
            ],
          }),
        })
        const cart = (await (await fetch(`${url}.js`)).json()) as { item_count: number }
        return { status: res.status, body: await res.json(), count: cart.item_count }
      }, cartUrl)
      expect(direct).toEqual({
        status: 422,
        body: {
          status: 422,
          message: 'Cart Error',
          description: '「よりどり定期便ボックス」は2個ちょうどお選びください（現在1個）',
        },
        count: 0,
      })
    } finally {
      await fresh.close()
    }
  })
})
