import { ZErrorResponse, ZLatestSubscription, ZSearchSubscriptionsResponse } from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { searchSubscriptions, searchSubscriptionsByVariant } from '../src/features/subscriptions/service.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { createShop, type SeedContract, seedContracts, useTestApp } from './support/fixtures.ts'

let shop: Awaited<ReturnType<typeof createShop>>

const VARIANT_COFFEE = '44000000000001'
const VARIANT_TEA = '44000000000002'

const taro = {
  id: '7000000000001',
  lastName: '山田',
  firstName: '太郎',
  email: 'Taro.Yamada@example.jp',
  phone: '+819012345678',
}
const hanako = {
  id: '7000000000002',
  lastName: '佐藤',
  firstName: '花子',
  email: 'hanako.sato@example.jp',
  phone: '+818011112222',
}
const jiro = {
  id: '7000000000003',
  lastName: '山田',
  firstName: '次郎',
  email: 'jiro_100%@example.jp',
  phone: null,
}

// 25 contracts: 3 named ones plus 22 fillers, next billing dates one day apart.
const named: SeedContract[] = [
  // 2026-11-30T15:30Z is 2026年12月1日 0:30 in Japan: it belongs to 1 December in the shop's zone.
  {
    id: '10000000001',
    customer: taro,
    status: 'ACTIVE',
    nextBillingDate: '2026-11-30T15:30:00Z',
    variantIds: [VARIANT_COFFEE],
  },
  {
    id: '10000000002',
    customer: hanako,
    status: 'PAUSED',
    nextBillingDate: '2026-11-30T14:59:59Z',
    variantIds: [VARIANT_TEA],
  },
  {
    id: '10000000003',
    customer: jiro,
    status: 'FAILED',
    nextBillingDate: '2026-12-05T01:00:00Z',
    variantIds: [VARIANT_COFFEE, VARIANT_TEA],
  },
]
const fillers: SeedContract[] = Array.from({ length: 22 }, (_, i) => ({
  id: String(20000000000 + i),
  status: i % 2 === 0 ? 'ACTIVE' : 'CANCELLED',
  customer: {
    id: String(7100000000000 + i),
    lastName: '鈴木',
    firstName: `${i}号`,
    email: `filler${i}@example.com`,
  },
  nextBillingDate: new Date(Date.UTC(2027, 0, 1 + i, 1)).toISOString(),
}))

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'search' })
  await seedContracts(env.pool, shop.id, [...named, ...fillers])
})

async function get(path: string, params: Record<string, string> = {}) {
  const query = new URLSearchParams({ shop: shop.domain, secret: shop.secret, ...params })
  const res = await env.app.inject({ method: 'GET', url: `/app-admin/subscriptions/${path}?${query}` })
  const body = res.json()
  // Every answer must match the contract the web app codes against.
  if (res.statusCode === 200) ZSearchSubscriptionsResponse.parse(body)
  else ZErrorResponse.parse(body)
  return { status: res.statusCode, body }
}
const ids = (body: { subscriptions: Array<{ contractId: string }> }) =>
  body.subscriptions.map((s) => s.contractId)

describe('GET /app-admin/subscriptions/search', () => {
  it('lists 10 rows by default, newest contract first, with page info', async () => {
    const { status, body } = await get('search')
    expect(status).toBe(200)
    expect(body.limit).toBe(10)
    expect(ids(body)).toEqual(
      fillers
        .slice(12)
        .map((f) => f.id)
        .reverse(),
    )
    expect(body.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false })
    const last = await get('search', { offset: '20' })
    expect(ids(last.body)).toEqual([
      fillers[1]!.id,
      fillers[0]!.id,
      '10000000003',
      '10000000002',
      '10000000001',
    ])
    expect(last.body.subscriptions[4]).toEqual({
      status: 'ACTIVE',
      customerId: taro.id,
      displayName: '山田 太郎',
      contractId: '10000000001',
      nextBillingDate: '2026-11-30T15:30:00.000Z',
      cursor: expect.any(String),
    })
  })

  it('orders by next billing date (Japan time) when a date range is given', async () => {
    const { body } = await get('search', { nextBillingDateFrom: '2026-11-01', limit: '4' })
    expect(ids(body)).toEqual(['10000000002', '10000000001', '10000000003', fillers[0]!.id])
  })

  it('pages with offset until hasNextPage is false', async () => {
    const last = await get('search', { offset: '20', limit: '10' })
    expect(ids(last.body)).toHaveLength(5)
    expect(last.body.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true })
    const exact = await get('search', { offset: '15', limit: '10' })
    expect(exact.body.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true })
  })

  it('filters by one or several statuses', async () => {
    expect(ids((await get('search', { statuses: 'FAILED' })).body)).toEqual(['10000000003'])
    const several = await get('search', { statuses: 'paused,failed', limit: '50' })
    expect(ids(several.body)).toEqual(['10000000003', '10000000002'])
    const cancelled = await get('search', { statuses: 'CANCELLED', limit: '50' })
    expect(cancelled.body.subscriptions).toHaveLength(11)
    expect(cancelled.body.subscriptions.every((s: { status: string }) => s.status === 'CANCELLED')).toBe(true)
  })

  it('reads the next billing date range as Japan-time calendar days', async () => {
    // Only 10000000001 falls on 2026年12月1日 JST; 10000000002 is still 11月30日 23:59:59 JST.
    const day = await get('search', { nextBillingDateFrom: '2026-12-01', nextBillingDateTo: '2026-12-01' })
    expect(ids(day.body)).toEqual(['10000000001'])
    const upTo = await get('search', { nextBillingDateTo: '2026-11-30' })
    expect(ids(upTo.body)).toEqual(['10000000002'])
    const withStatus = await get('search', {
      nextBillingDateFrom: '2026-11-01',
      nextBillingDateTo: '2026-12-31',
      statuses: 'ACTIVE,FAILED',
    })
    expect(ids(withStatus.body)).toEqual(['10000000001', '10000000003'])
  })

  it.each([
    [{ statuses: 'ACTIVE,SLEEPING' }, /不明なステータス/],
    [{ nextBillingDateFrom: '2026/12/01' }, /YYYY-MM-DD/],
    [{ nextBillingDateFrom: '2026-02-30' }, /2026年2月30日は存在しない日付です/],
    // Issue 22: the filter is refused with the day named, never dropped.
    [{ nextBillingDateTo: '2026-13-45' }, /2026年13月45日は存在しない日付です/],
    [{ nextBillingDateFrom: '2026-12-02', nextBillingDateTo: '2026-12-01' }, /開始日は終了日以前/],
    [{ limit: '0' }, /入力内容/],
    [{ limit: '101' }, /入力内容/],
    [{ offset: '-1' }, /入力内容/],
    [{ contractId: 'abc' }, /契約ID/],
  ])('rejects %o with 400 and a Japanese message', async (params, message) => {
    const { status, body } = await get('search', params)
    expect(status).toBe(400)
    expect(body.error.code).toBe('INVALID_INPUT')
    expect(body.error.message).toMatch(message)
  })

  it('finds one contract by id, and nothing for an unknown id', async () => {
    expect(ids((await get('search', { contractId: '10000000003' })).body)).toEqual(['10000000003'])
    expect((await get('search', { contractId: '99999999999' })).body.subscriptions).toEqual([])
  })

  it.each([
    ['an e-mail, case-insensitive', 'taro.yamada@example.jp', ['10000000001']],
    ['an e-mail prefix', 'hanako', ['10000000002']],
    ['a family name', '山田', ['10000000003', '10000000001']],
    ['a full name without space', '山田太郎', ['10000000001']],
    ['a full name with a space', '山田 太郎', ['10000000001']],
    ['a given name', '花子', ['10000000002']],
    ['a phone number starting with 0', '09012345678', ['10000000001']],
    ['a hyphenated phone number', '080-1111-2222', ['10000000002']],
    ['a full-width phone number', '０９０１２３４５６７８', ['10000000001']],
    ['an international phone number', '+81 90-1234-5678', ['10000000001']],
    ['LIKE wildcards, matched literally', '%', []],
    ['an underscore, matched literally', 'jiro_', ['10000000003']],
    ['a stranger', 'nobody@example.jp', []],
  ])('finds customers by %s', async (_name, customerQuery, expected) => {
    const { status, body } = await get('search', { customerQuery, limit: '50' })
    expect(status).toBe(200)
    expect(ids(body)).toEqual(expected)
  })

  it('combines a customer search with the status filter', async () => {
    expect(ids((await get('search', { customerQuery: '山田', statuses: 'FAILED' })).body)).toEqual([
      '10000000003',
    ])
  })
})

describe('GET /app-admin/subscriptions/search-variant-id', () => {
  it('finds the contracts that have a line of the variant', async () => {
    expect(ids((await get('search-variant-id', { variantId: VARIANT_COFFEE })).body)).toEqual([
      '10000000003',
      '10000000001',
    ])
    expect(
      ids((await get('search-variant-id', { variantId: VARIANT_TEA, statuses: 'PAUSED' })).body),
    ).toEqual(['10000000002'])
  })

  it('pages with limit and offset', async () => {
    const first = await get('search-variant-id', { variantId: VARIANT_COFFEE, limit: '1' })
    expect(ids(first.body)).toEqual(['10000000003'])
    expect(first.body.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false })
    const second = await get('search-variant-id', { variantId: VARIANT_COFFEE, limit: '1', offset: '1' })
    expect(ids(second.body)).toEqual(['10000000001'])
    expect(second.body.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true })
  })

  it.each(['4400000000000', '440000000000011', 'abc', ''])('rejects variant id %j', async (variantId) => {
    const { status, body } = await get('search-variant-id', { variantId })
    expect(status).toBe(400)
    expect(body.error.message).toMatch(/14桁/)
  })
})

describe('the total of a search (全N件)', () => {
  const total = async (path: string, params: Record<string, string>) => (await get(path, params)).body.total

  it.each<[string, Record<string, string>, number]>([
    ['every contract, first page (counted)', {}, 25],
    ['every contract, last page (told by the page)', { offset: '20' }, 25],
    ['a page past the end (counted)', { offset: '40' }, 25],
    ['one status over several pages', { statuses: 'ACTIVE', limit: '5' }, 12],
    ['two statuses on one page', { statuses: 'PAUSED,FAILED' }, 2],
    [
      'a date range in Japan time',
      { nextBillingDateFrom: '2026-12-01', nextBillingDateTo: '2027-01-05', limit: '2' },
      7,
    ],
    ['a customer', { customerQuery: '山田', limit: '1' }, 2],
    ['a contract id', { contractId: '10000000003' }, 1],
    ['no match', { customerQuery: 'nobody@example.jp' }, 0],
  ])('%s', async (_name, params, count) => {
    expect(await total('search', params)).toEqual({ count, precision: 'EXACT' })
  })

  it('counts a variant search the same way', async () => {
    expect(await total('search-variant-id', { variantId: VARIANT_COFFEE, limit: '1' })).toEqual({
      count: 2,
      precision: 'EXACT',
    })
    expect(await total('search-variant-id', { variantId: VARIANT_TEA, statuses: 'PAUSED' })).toEqual({
      count: 1,
      precision: 'EXACT',
    })
  })

  it('stops counting at the limit and says AT_LEAST (the platform counts the same way)', async () => {
    const row = (await findInstalledShop(env.pool, shop.domain))!
    const base = { statuses: [], offset: 0, limit: 10 }
    // 25 contracts, counting stops at 20.
    expect((await searchSubscriptions(env.pool, row, base, { countLimit: 20 })).total).toEqual({
      count: 20,
      precision: 'AT_LEAST',
    })
    // Exactly at the limit is still exact.
    expect((await searchSubscriptions(env.pool, row, base, { countLimit: 25 })).total).toEqual({
      count: 25,
      precision: 'EXACT',
    })
    // A page deeper than the limit says at least as many as it has seen, without counting.
    expect(
      (await searchSubscriptions(env.pool, row, { ...base, offset: 10, limit: 5 }, { countLimit: 12 })).total,
    ).toEqual({
      count: 16,
      precision: 'AT_LEAST',
    })
    // The variant's page saw 2 contracts (its row and the next page's first): at least 2.
    const variant = { variantId: VARIANT_COFFEE, statuses: [], offset: 0, limit: 1 }
    expect((await searchSubscriptionsByVariant(env.pool, row, variant, { countLimit: 1 })).total).toEqual({
      count: 2,
      precision: 'AT_LEAST',
    })
  })
})

describe('GET /app-admin/subscriptions/latest', () => {
  // Before, the path fell into /subscriptions/:contractId and answered 400 (「契約IDは数字で…」).
  async function latest(params: Record<string, string> = {}) {
    const query = new URLSearchParams({ shop: shop.domain, secret: shop.secret, ...params })
    const res = await env.app.inject({ method: 'GET', url: `/app-admin/subscriptions/latest?${query}` })
    expect(res.statusCode, res.body).toBe(200)
    return ZLatestSubscription.parse(res.json()).subscription
  }

  it('answers the newest contract as the list shows it, or the newest of the statuses asked', async () => {
    const newest = fillers.at(-1)!
    expect(await latest()).toEqual({
      status: newest.status,
      customerId: newest.customer.id,
      displayName: '鈴木 21号',
      contractId: newest.id,
      nextBillingDate: newest.nextBillingDate,
      cursor: expect.any(String),
    })
    // The newest ACTIVE one is the filler before it (fillers alternate ACTIVE and CANCELLED).
    expect((await latest({ statuses: 'ACTIVE' }))?.contractId).toBe(fillers.at(-2)!.id)
    expect((await latest({ statuses: 'PAUSED' }))?.contractId).toBe('10000000002')
    expect(await latest({ statuses: 'EXPIRED' })).toBeNull()
  })
})
