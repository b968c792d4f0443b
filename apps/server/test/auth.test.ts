import { beforeAll, describe, expect, it } from 'vitest'
import {
  createShop,
  seedContracts,
  TEST_API_SECRET,
  testSessionToken,
  useTestApp,
} from './support/fixtures.ts'

let shopA: Awaited<ReturnType<typeof createShop>>
let shopB: Awaited<ReturnType<typeof createShop>>

const customer = (id: string, name: string) => ({
  id,
  firstName: name,
  lastName: '山田',
  email: `${name}@example.jp`,
})

const env = useTestApp()
beforeAll(async () => {
  shopA = await createShop(env.pool, { prefix: 'auth-a' })
  shopB = await createShop(env.pool, { prefix: 'auth-b' })
  await seedContracts(env.pool, shopA.id, [
    { id: '91000000001', customer: customer('7100000000001', 'a'), nextBillingDate: '2026-12-01T01:00:00Z' },
  ])
  await seedContracts(env.pool, shopB.id, [
    { id: '92000000001', customer: customer('7200000000001', 'b'), nextBillingDate: '2026-12-01T01:00:00Z' },
  ])
})

const now = () => Math.floor(Date.now() / 1000)
const token = testSessionToken

function search(query: string, headers: Record<string, string> = {}) {
  return env.app.inject({ method: 'GET', url: `/app-admin/subscriptions/search${query}`, headers })
}

describe('authentication of /app-admin', () => {
  it('answers 401 with a Japanese error body when there are no credentials', async () => {
    const res = await search('')
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({
      error: { code: 'UNAUTHENTICATED', message: expect.stringMatching(/認証情報/) },
    })
  })

  it.each([
    ['a wrong secret', () => `?shop=${shopA.domain}&secret=wrong`],
    ["another shop's secret", () => `?shop=${shopA.domain}&secret=${shopB.secret}`],
    ['an unknown shop', () => `?shop=nope.myshopify.com&secret=${shopA.secret}`],
    ['a secret without shop', () => `?secret=${shopA.secret}`],
  ])('answers 401 for %s', async (_name, query) => {
    const res = await search(query())
    expect(res.statusCode).toBe(401)
    expect(res.json().error.code).toBe('UNAUTHENTICATED')
  })

  it('accepts the shop secret', async () => {
    const res = await search(`?shop=${shopA.domain}&secret=${shopA.secret}`)
    expect(res.statusCode).toBe(200)
  })

  it('accepts a valid session token and takes the shop from dest', async () => {
    const res = await search('', { authorization: `Bearer ${token(shopB.domain)}` })
    expect(res.statusCode).toBe(200)
    expect(res.json().subscriptions.map((s: { contractId: string }) => s.contractId)).toEqual(['92000000001'])
  })

  it.each([
    ['a bad signature', () => token(shopA.domain, {}, 'another-secret')],
    ['an expired token', () => token(shopA.domain, { exp: now() - 11, nbf: now() - 120 })],
    ['a token not yet valid', () => token(shopA.domain, { nbf: now() + 30 })],
    ['a wrong audience', () => token(shopA.domain, { aud: 'someone-else' })],
    [
      'alg none',
      () => `${token(shopA.domain, {}, TEST_API_SECRET, 'none').split('.').slice(0, 2).join('.')}.`,
    ],
    ['alg none with a signature', () => token(shopA.domain, {}, TEST_API_SECRET, 'none')],
    [
      'dest not a shop',
      () => token(shopA.domain, { dest: 'https://evil.example.com', iss: 'https://evil.example.com/admin' }),
    ],
    ['iss from another shop', () => token(shopA.domain, { iss: `https://${shopB.domain}/admin` })],
    ['garbage', () => 'not.a.jwt'],
  ])('answers 401 for %s', async (_name, make) => {
    const res = await search('', { authorization: `Bearer ${make()}` })
    expect(res.statusCode).toBe(401)
    expect(res.json().error.code).toBe('UNAUTHENTICATED')
  })

  it('tolerates 10 s of clock skew on exp', async () => {
    const res = await search('', { authorization: `Bearer ${token(shopA.domain, { exp: now() - 5 })}` })
    expect(res.statusCode).toBe(200)
  })

  it('keeps other /app-admin routes behind auth too; a path that is no route is a JSON 404', async () => {
    for (const url of [
      '/app-admin/plan',
      '/app-admin/subscriptions/search-variant-id?variantId=44000000000001',
    ]) {
      expect((await env.app.inject({ method: 'GET', url })).statusCode).toBe(401)
    }
    const miss = await env.app.inject({ method: 'GET', url: '/app-admin/nope' })
    expect(miss.statusCode).toBe(404)
    expect(miss.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'ページが見つかりません。' } })
  })
})

describe('shop isolation', () => {
  it("never returns shop B's rows to shop A, whatever the query names", async () => {
    const asA = `shop=${shopA.domain}&secret=${shopA.secret}`
    const all = await search(`?${asA}`)
    expect(all.json().subscriptions.map((s: { contractId: string }) => s.contractId)).toEqual(['91000000001'])
    const byId = await search(`?${asA}&contractId=92000000001`)
    expect(byId.json().subscriptions).toEqual([])
    const byEmail = await search(`?${asA}&customerQuery=b@example.jp`)
    expect(byEmail.json().subscriptions).toEqual([])
  })

  it('uses the shop of the token, not a shop query parameter', async () => {
    const res = await search(`?shop=${shopA.domain}`, { authorization: `Bearer ${token(shopB.domain)}` })
    expect(res.json().subscriptions.map((s: { contractId: string }) => s.contractId)).toEqual(['92000000001'])
  })
})
