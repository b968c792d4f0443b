import { ZErrorResponse, ZVariantSearchResponse, ZVariantSummary } from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { decimalText } from '../src/features/products/repo.ts'
import { upsertProducts } from '../src/sync/mirror-repo.ts'
import { createShop, useTestApp } from './support/fixtures.ts'

type Shop = Awaited<ReturnType<typeof createShop>>
let shop: Shop
let other: Shop

// Titles start with ASCII of one case so the expected order is the same under any collation.
const COFFEE = '8800000000001'
const TEA = '8800000000002'
const SOAP = '8800000000003'
const V = {
  coffeeBeans200: '44100000000001',
  coffeeBeans500: '44100000000002',
  coffeeDrip: '44100000000003',
  teaGreen: '44100000000004',
  soap: '44100000000005',
}

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'products' })
  other = await createShop(env.pool, { prefix: 'products-other' })
  // Written the way the sync writes them.
  await upsertProducts(
    env.pool,
    shop.id,
    [
      {
        id: COFFEE,
        title: 'Coffee 定期便 ブレンド',
        handle: 'coffee',
        status: 'ACTIVE',
        image_url: 'https://cdn.example.jp/coffee.jpg',
        updated_at: '2026-01-01T00:00:00Z',
      },
      {
        id: TEA,
        title: 'Tea 緑茶セット',
        handle: 'tea',
        status: 'ACTIVE',
        image_url: null,
        updated_at: '2026-01-01T00:00:00Z',
      },
      {
        id: SOAP,
        title: 'Soap 無添加石けん',
        handle: 'soap',
        status: 'DRAFT',
        image_url: null,
        updated_at: '2026-01-01T00:00:00Z',
      },
    ],
    [
      { id: V.coffeeBeans500, product_id: COFFEE, title: '豆 500g', sku: 'CF-BEAN-500', price: '3480.00' },
      { id: V.coffeeBeans200, product_id: COFFEE, title: '豆 200g', sku: 'CF-BEAN-200', price: '1580.50' },
      { id: V.coffeeDrip, product_id: COFFEE, title: 'ドリップバッグ 10袋', sku: null, price: '1200' },
      { id: V.teaGreen, product_id: TEA, title: 'Default Title', sku: 'TEA-100%', price: '980.0' },
      { id: V.soap, product_id: SOAP, title: 'Default Title', sku: 'soap_01', price: null },
    ],
  )
  await upsertProducts(
    env.pool,
    other.id,
    [
      {
        id: '8800000000009',
        title: 'Coffee 他店',
        handle: 'x',
        status: 'ACTIVE',
        image_url: null,
        updated_at: '2026-01-01T00:00:00Z',
      },
    ],
    [
      {
        id: '44100000000009',
        product_id: '8800000000009',
        title: '豆 1kg',
        sku: 'CF-BEAN-1K',
        price: '6000',
      },
    ],
  )
})

async function get(path: string, params: Record<string, string> = {}, as: Shop = shop) {
  const query = new URLSearchParams({ shop: as.domain, secret: as.secret, ...params })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/products/variants/${path}?${query}` })
  const body = res.json()
  if (res.statusCode >= 400) ZErrorResponse.parse(body)
  return { status: res.statusCode, body }
}

async function search(params: Record<string, string>, as: Shop = shop) {
  const { status, body } = await get('search', params, as)
  expect(status).toBe(200)
  return ZVariantSearchResponse.parse(body).variants.map((v) => v.id)
}

describe('GET /app-admin/products/variants/:id', () => {
  it('answers the variant with its product', async () => {
    const { status, body } = await get(V.coffeeBeans200)
    expect(status).toBe(200)
    expect(ZVariantSummary.parse(body)).toEqual({
      id: V.coffeeBeans200,
      productId: COFFEE,
      productTitle: 'Coffee 定期便 ブレンド',
      title: '豆 200g',
      sku: 'CF-BEAN-200',
      price: '1580.5',
      imageUrl: 'https://cdn.example.jp/coffee.jpg',
    })
    expect((await get(V.coffeeDrip)).body).toMatchObject({
      sku: null,
      price: '1200',
      imageUrl: 'https://cdn.example.jp/coffee.jpg',
    })
    expect((await get(V.soap)).body).toMatchObject({ price: null, imageUrl: null })
  })

  it('answers 404 for an unknown variant and another shop’s variant', async () => {
    for (const id of ['44199999999999', '44100000000009']) {
      const { status, body } = await get(id)
      expect(status).toBe(404)
      expect(body.error).toEqual({ code: 'NOT_FOUND', message: '商品バリエーションが見つかりません' })
    }
    expect((await get('44100000000009', {}, other)).status).toBe(200)
  })

  it('answers 400 for a non-numeric id', async () => {
    const { status, body } = await get('abc')
    expect(status).toBe(400)
    expect(body.error.message).toMatch(/バリエーションIDは数字/)
  })
})

describe('GET /app-admin/products/variants/search', () => {
  it('lists every variant of the shop by product title, then variant id, 10 by default', async () => {
    expect(await search({})).toEqual([V.coffeeBeans200, V.coffeeBeans500, V.coffeeDrip, V.soap, V.teaGreen])
  })

  it.each([
    ['a product title, case-insensitive', 'coffee', [V.coffeeBeans200, V.coffeeBeans500, V.coffeeDrip]],
    ['a Japanese part of a product title', '緑茶', [V.teaGreen]],
    ['a variant title', '500g', [V.coffeeBeans500]],
    ['a Japanese variant title', 'ドリップ', [V.coffeeDrip]],
    ['a SKU, case-insensitive', 'cf-bean', [V.coffeeBeans200, V.coffeeBeans500]],
    ['% literally', '100%', [V.teaGreen]],
    ['_ literally', 'p_0', [V.soap]],
    ['a variant id', V.teaGreen, [V.teaGreen]],
    ['digits inside a title', '200', [V.coffeeBeans200]],
    ['a trimmed query', '  Soap  ', [V.soap]],
    ['nothing', 'ワイン', []],
  ])('finds %s', async (_name, query, expected) => {
    expect(await search({ query })).toEqual(expected)
  })

  it('matches a numeric query against the id exactly, not as a prefix', async () => {
    expect(await search({ query: '4410000000000' })).toEqual([])
  })

  it('honours limit', async () => {
    expect(await search({ limit: '2' })).toEqual([V.coffeeBeans200, V.coffeeBeans500])
    expect(await search({ query: 'coffee', limit: '1' })).toEqual([V.coffeeBeans200])
    expect(await search({ limit: '50' })).toHaveLength(5)
  })

  it('never shows another shop’s variants', async () => {
    expect(await search({ query: 'CF-BEAN-1K' })).toEqual([])
    expect(await search({ query: '44100000000009' })).toEqual([])
    expect(await search({ query: 'coffee' }, other)).toEqual(['44100000000009'])
  })

  it.each([
    [{ limit: '0' }, /1以上/],
    [{ limit: '51' }, /50以下/],
    [{ limit: 'abc' }, /数字/],
    [{ limit: '1.5' }, /整数/],
    [{ query: 'あ'.repeat(201) }, /200文字以内/],
  ])('rejects %o with 400 and a Japanese message', async (params, message) => {
    const { status, body } = await get('search', params)
    expect(status).toBe(400)
    expect(body.error.code).toBe('INVALID_INPUT')
    expect(body.error.message).toMatch(message)
  })
})

describe('decimalText', () => {
  it.each([
    ['1980.0000', '1980'],
    ['1980.5000', '1980.5'],
    ['0.0000', '0'],
    ['100', '100'],
    ['0.1250', '0.125'],
  ])('%s → %s', (input, expected) => {
    expect(decimalText(input)).toBe(expected)
  })
})
