import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_FUNCTION_EXTENSION_DIRS } from '../src/function-extension.ts'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'
import { BUYER, shopper } from './support/storefront-client.ts'

// The box rules function (extensions/teiki-box-rules) activated with validationCreate and run by
// the store as the platform runs it: a cart change it refuses is not made, and the shopper reads
// its Japanese message; checkout is blocked while the cart breaks a rule; a fixed cart goes through.

const BOX = 'よりどり定期便ボックス'
const TOO_FEW = `「${BOX}」は2個以上お選びください（現在1個）`
const TOO_MANY = `「${BOX}」は3個までお選びいただけます（現在4個）`

describe('box rules at the cart and checkout', () => {
  let emulator: Emulator
  let baseUrl: string
  let validationId = ''
  const shop = () => emulator.store.shop(SHOP)!
  const group = () => shop().sellingPlanGroups.find((g) => g.productIds.length >= 4)!
  const variantIds = () =>
    group()
      .productIds.slice(0, 4)
      .map((id) => shop().products.find((p) => p.id === id)!.variantIds[0]!)
  const item = (i: number) => ({
    id: variantIds()[i],
    quantity: 1,
    selling_plan: group().sellingPlans[0]!.id,
    properties: { _box: BOX, _box_id: '1' },
  })
  const addJs = (browser: ReturnType<typeof shopper>, items: unknown[]) =>
    browser.request('/cart/add.js', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    })
  const itemCount = async (browser: ReturnType<typeof shopper>) =>
    (JSON.parse((await browser.get('/cart.js')).text) as { item_count: number }).item_count
  const setRules = (minSelection: number, maxSelection: number) =>
    gql(emulator, m.metafieldsSet, {
      metafields: [
        {
          ownerId: validationId,
          namespace: 'teiki',
          key: 'box_rules',
          type: 'json',
          value: JSON.stringify({ boxes: [{ id: '1', name: BOX, minSelection, maxSelection }] }),
        },
      ],
    })

  beforeAll(async () => {
    emulator = await smallEmulator()
    baseUrl = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  it('lists the deployed function: a cart and checkout validation on 2025-04 with its input query', async () => {
    const data = await gql(emulator, m.shopifyFunctions, { apiType: 'cart_checkout_validation' })
    expect(data.shopifyFunctions.nodes).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/),
        title: 'teiki-box-rules',
        apiType: 'cart_checkout_validation',
        apiVersion: '2025-04',
        appKey: expect.any(String),
        inputQuery: readFileSync(join(DEFAULT_FUNCTION_EXTENSION_DIRS[0]!, 'src/run.graphql'), 'utf8'),
      },
    ])
    expect(
      (await gql(emulator, m.shopifyFunctions, { apiType: 'payment_customization' })).shopifyFunctions.nodes,
    ).toEqual([])
  })

  it('validationCreate refuses an unknown function and, without write_validations, answers ACCESS_DENIED', async () => {
    const unknown = await gql(emulator, m.validationCreate, {
      validation: { functionId: 'nope', enable: true },
    })
    expect(unknown.validationCreate).toMatchObject({
      validation: null,
      userErrors: [{ code: 'FUNCTION_NOT_FOUND', field: ['validation', 'functionId'] }],
    })
    const saved = [...shop().installation.scopes]
    try {
      shop().installation.scopes = saved.filter((s) => s !== 'write_validations')
      const res = await emulator.graphql(SHOP, {
        query: m.validationCreate,
        variables: { validation: { functionId: 'nope' } },
      })
      expect(res.data).toEqual({ validationCreate: null })
      expect(res.errors?.[0]).toMatchObject({
        message:
          'Access denied for validationCreate field. Required access: `write_validations` access scope.',
        extensions: { code: 'ACCESS_DENIED' },
      })
      const read = await emulator.graphql(SHOP, { query: m.validationsQuery })
      expect(read.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED')
    } finally {
      shop().installation.scopes = saved
    }
    expect(shop().extra?.validations ?? []).toEqual([])
  })

  it('a validation created without enable exists but does not run: the cart takes one product of the box', async () => {
    const { id } = (await gql(emulator, m.shopifyFunctions)).shopifyFunctions.nodes[0]
    const made = await gql(emulator, m.validationCreate, {
      validation: { functionId: id, title: '詰め合わせの選択数' },
    })
    expect(made.validationCreate.validation).toMatchObject({ enabled: false, title: '詰め合わせの選択数' })
    const browser = shopper(baseUrl, SHOP)
    expect((await addJs(browser, [item(0)])).status).toBe(200)
    expect(await itemCount(browser)).toBe(1)
    shop().extra!.validations = []
  })

  it('refuses a box with too few products at the cart: 422 with the message, nothing added', async () => {
    const { id } = (await gql(emulator, m.shopifyFunctions)).shopifyFunctions.nodes[0]
    const made = await gql(emulator, m.validationCreate, {
      validation: {
        functionId: id,
        enable: true,
        metafields: [
          {
            namespace: 'teiki',
            key: 'box_rules',
            type: 'json',
            value: JSON.stringify({ boxes: [{ id: '1', name: BOX, minSelection: 2, maxSelection: 3 }] }),
          },
        ],
      },
    })
    expect(made.validationCreate.userErrors).toEqual([])
    validationId = made.validationCreate.validation.id
    const listed = (await gql(emulator, m.validationsQuery)).validations.nodes
    expect(listed).toEqual([
      {
        id: validationId,
        enabled: true,
        shopifyFunction: { id },
        metafield: { jsonValue: expect.any(Object) },
      },
    ])
    const browser = shopper(baseUrl, SHOP)
    const refused = await addJs(browser, [item(0)])
    expect(refused.status).toBe(422)
    expect(JSON.parse(refused.text)).toEqual({ status: 422, message: 'Cart Error', description: TOO_FEW })
    expect(await itemCount(browser)).toBe(0)
    // The form post is refused the same way: the cart page says why, the cart as it was.
    const form = await browser.form('/cart/add', {
      id: String(variantIds()[0]),
      selling_plan: String(group().sellingPlans[0]!.id),
      'properties[_box]': BOX,
      'properties[_box_id]': '1',
    })
    expect(form.status).toBe(422)
    expect(form.text).toContain(`<div class="error" role="alert"><p>${TOO_FEW}</p></div>`)
    expect(await itemCount(browser)).toBe(0)
  })

  it('takes the minimum and the maximum, refuses one past the maximum, and a line taken out below the minimum', async () => {
    const browser = shopper(baseUrl, SHOP)
    expect((await addJs(browser, [item(0), item(1)])).status).toBe(200)
    expect((await addJs(browser, [item(2)])).status).toBe(200)
    const over = await addJs(browser, [item(3)])
    expect(JSON.parse(over.text).description).toBe(TOO_MANY)
    expect(await itemCount(browser)).toBe(3)
    // Products that are not in a box are not counted.
    const plain = shop().variants.find((v) => !variantIds().includes(v.id))!
    expect((await addJs(browser, [{ id: plain.id, quantity: 5 }])).status).toBe(200)
    expect((await browser.form('/cart/change', { line: '1', quantity: '0' })).status).toBe(303)
    const below = await browser.form('/cart/change', { line: '1', quantity: '0' })
    expect(below.status).toBe(422)
    expect(below.text).toContain(TOO_FEW)
    expect(await itemCount(browser)).toBe(7)
    // The cart page's ボックスを削除 takes the box out whole, in one change the rule allows.
    const page = (await browser.get('/cart')).text
    expect(page).not.toContain('role="alert"')
    const updates = [
      ...page.matchAll(/<form method="post" action="[^"]*\/cart\/update">(.*?)<button/g),
    ][0]![1]!
    const quantities = [...updates.matchAll(/value="(\d+)"/g)].map((q) => q[1]!)
    expect(quantities).toEqual(['0', '0', '5'])
    const body = new URLSearchParams(quantities.map((q) => ['updates[]', q])).toString()
    const removed = await browser.request('/cart/update', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    expect(removed.status).toBe(303)
    expect(await itemCount(browser)).toBe(5)
  })

  it('blocks checkout while the cart breaks a rule (set after it was filled), and lets the fixed cart through', async () => {
    const browser = shopper(baseUrl, SHOP)
    expect((await addJs(browser, [item(0), item(1)])).status).toBe(200)
    await setRules(3, 3)
    const exact = `「${BOX}」は3個ちょうどお選びください（現在2個）`
    expect((await browser.get('/cart')).text).toContain(exact)
    expect((await browser.get('/checkout')).text).toContain(exact)
    const orders = shop().orders.length
    const paid = await browser.form('/checkout', { ...BUYER, provinceCode: 'JP-13' })
    expect(paid.status).toBe(422)
    expect(paid.text).toContain(exact)
    expect(shop().orders.length).toBe(orders)
    expect((await addJs(browser, [item(2)])).status).toBe(200)
    const fixed = await browser.form('/checkout', { ...BUYER, provinceCode: 'JP-13' })
    expect([fixed.status, fixed.location]).toEqual([303, `/s/${SHOP}/thank-you`])
    expect(shop().orders.length).toBe(orders + 1)
    await setRules(2, 3)
  })

  it('lets metafieldsSet write a validation’s metafield only with write_validations', async () => {
    const saved = [...shop().installation.scopes]
    try {
      shop().installation.scopes = saved.filter((s) => s !== 'write_validations')
      const res = await emulator.graphql(SHOP, {
        query: m.metafieldsSet,
        variables: {
          metafields: [
            { ownerId: validationId, namespace: 'teiki', key: 'box_rules', type: 'json', value: '{}' },
          ],
        },
      })
      expect(res.errors?.[0]?.extensions?.code).toBe('ACCESS_DENIED')
    } finally {
      shop().installation.scopes = saved
    }
    const gone = toGid('Validation', 1)
    const refused = await gql(emulator, m.metafieldsSet, {
      metafields: [{ ownerId: gone, namespace: 'teiki', key: 'box_rules', type: 'json', value: '{}' }],
    })
    expect(refused.metafieldsSet.userErrors[0]).toMatchObject({ field: ['metafields', '0', 'ownerId'] })
  })
})
