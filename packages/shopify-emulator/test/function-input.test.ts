import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { VALIDATION_FAILED } from '../src/storefront/cart-validation.ts'
import { functionInput } from '../src/storefront/function-input.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'
import { shopper } from './support/storefront-client.ts'

// A function's input is what its query names and nothing more, and it runs with nothing but its
// input: a probe function that reports what it was given (as its error message) shows both.

const QUERY = `query RunInput {
  cart {
    lines {
      quantity
      box: attribute(key: "_box") { value }
      missing: attribute(key: "_nothing") { value }
      merchandise { __typename ... on ProductVariant { id } }
    }
  }
  validation { metafield(namespace: "probe", key: "settings") { jsonValue } }
  buyerJourney { step }
}`

/** Reports its input and what the language around it holds; throws for 13 of a product. */
const PROBE = `export function run(input) {
  if (input.cart.lines.some((l) => l.quantity === 13)) throw new Error('unlucky')
  const around = { process: typeof process, require: typeof require, fetch: typeof fetch, seen: typeof globalThis.__seen }
  globalThis.__seen = true
  return { errors: [{ localizedMessage: JSON.stringify({ input, around }), target: '$.cart' }] }
}
`

function probeExtension(): string {
  const dir = mkdtempSync(join(tmpdir(), 'teiki-probe-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(
    join(dir, 'shopify.extension.toml'),
    `api_version = "2025-04"\n\n[[extensions]]\nname = "probe"\nhandle = "probe"\ntype = "function"\n\n  [[extensions.targeting]]\n  target = "purchase.validation.run"\n  input = "src/run.graphql"\n  export = "run"\n`,
  )
  writeFileSync(join(dir, 'src/run.graphql'), QUERY)
  writeFileSync(join(dir, 'src/index.js'), PROBE)
  return dir
}

describe('function input', () => {
  it('answers the query’s fields under its aliases, calling a field’s function with its arguments', () => {
    const root = {
      cart: {
        lines: [
          { __typename: 'CartLine', quantity: 2, attribute: ({ key }: { key: string }) => ({ value: key }) },
        ],
        cost: () => {
          throw new Error('not asked, not computed')
        },
      },
    }
    const q =
      'query { cart { lines { quantity a: attribute(key: "x") { value } b: attribute(key: $k) { value } } } }'
    expect(functionInput(q, root, { k: 'y' })).toEqual({
      cart: { lines: [{ quantity: 2, a: { value: 'x' }, b: { value: 'y' } }] },
    })
    expect(() => functionInput('query { cart { nonsense } }', root)).toThrow('no field Input.cart.nonsense')
  })
})

describe('a validation function in the store', () => {
  let emulator: Emulator
  let baseUrl: string
  const shop = () => emulator.store.shop(SHOP)!
  const add = (browser: ReturnType<typeof shopper>, quantity: number) =>
    browser.request('/cart/add.js', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ id: shop().variants[0]!.id, quantity, properties: { _box: '箱' } }] }),
    })

  beforeAll(async () => {
    emulator = await smallEmulator({ functionExtensionDirs: [probeExtension()] })
    baseUrl = (await emulator.listen(0)).url
    const { id } = (await gql(emulator, m.shopifyFunctions)).shopifyFunctions.nodes[0]
    const made = await gql(emulator, m.validationCreate, {
      validation: {
        functionId: id,
        enable: true,
        metafields: [{ namespace: 'probe', key: 'settings', type: 'json', value: '{"limit":1}' }],
      },
    })
    expect(made.validationCreate.userErrors).toEqual([])
  })
  afterAll(() => emulator.close())

  it('hands the function only what its query names, in a context with no Node, network or memory', async () => {
    const res = await add(shopper(baseUrl, SHOP), 2)
    expect(res.status).toBe(422)
    const reported = JSON.parse(JSON.parse(res.text).description)
    expect(reported).toEqual({
      input: {
        cart: {
          lines: [
            {
              quantity: 2,
              box: { value: '箱' },
              missing: null,
              merchandise: {
                __typename: 'ProductVariant',
                id: `gid://shopify/ProductVariant/${shop().variants[0]!.id}`,
              },
            },
          ],
        },
        validation: { metafield: { jsonValue: { limit: 1 } } },
        buyerJourney: { step: 'CART_INTERACTION' },
      },
      around: { process: 'undefined', require: 'undefined', fetch: 'undefined', seen: 'undefined' },
    })
    // A second run starts afresh: nothing the first left on its global is there.
    const again = JSON.parse(JSON.parse((await add(shopper(baseUrl, SHOP), 3)).text).description)
    expect(again.around.seen).toBe('undefined')
  })

  it('a function that fails lets the cart go on, unless the validation blocks on failure', async () => {
    const browser = shopper(baseUrl, SHOP)
    expect((await add(browser, 13)).status).toBe(200)
    shop().extra!.validations![0]!.blockOnFailure = true
    const held = await add(shopper(baseUrl, SHOP), 13)
    expect(JSON.parse(held.text)).toMatchObject({ status: 422, description: VALIDATION_FAILED })
  })
})
