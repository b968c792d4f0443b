import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  call,
  mutationsSince,
  type PlanShops,
  plan,
  SECRET,
  startPlanShops,
} from './support/selling-plans.ts'

// The spec's two GETs that write — `cdp-segment-delete` and `free-shipping-profile/update` —
// share one guard (http/get-write-guard.ts): a browser's navigation, embed, prefetch or a
// request from another site is refused (403) before anything is written, a HEAD has no route,
// and the answer is never cached. Before, `free-shipping-profile/update` had none of it: a link
// on another site could move a selling plan group in or out of free shipping.

let env: PlanShops
let groupId = ''
let segmentId = ''

beforeAll(async () => {
  env = await startPlanShops('get-writes')
  const group = await call(env, 'POST', '/selling-plan-groups', { name: '送料テスト', plans: [plan('毎月')] })
  groupId = (group.body as { id: string }).id
  const segment = await call(env, 'POST', '/cdp-segment-create', {
    data: { name: '消さない', conditions: {} },
  })
  segmentId = (segment.body as { id: string }).id
  expect(groupId).toMatch(/^\d+$/)
  expect(segmentId).toMatch(/^\d+$/)
}, 120_000)
afterAll(() => env?.close())

const WRITES: Array<[string, () => string, () => Promise<string>]> = [
  [
    'free-shipping-profile/update',
    () => `/app-admin/free-shipping-profile/update?sellingPlanGroupId=${groupId}&free=true`,
    async () => JSON.stringify(mutationsSince(env.emulator, 0, env.main)),
  ],
  [
    'cdp-segment-delete',
    () => `/app-admin/cdp-segment-delete?segmentId=${segmentId}`,
    async () => String((await call(env, 'GET', `/cdp-segment-data?segmentId=${segmentId}`)).status),
  ],
]

const REFUSED: Array<Record<string, string>> = [
  { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  { 'sec-purpose': 'prefetch' },
]
const FROM_APP = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }

const inject = (method: 'GET' | 'HEAD', path: string, headers: Record<string, string> = {}) =>
  env.app.inject({ method, url: `${path}&shop=${env.main}&secret=${SECRET}`, headers })

describe.each(WRITES)('GET /%s', (_name, path, state) => {
  it('refuses navigations, embeds, prefetches and other sites (403, no-store) and writes nothing', async () => {
    const before = await state()
    for (const headers of REFUSED) {
      const res = await inject('GET', path(), headers)
      expect(res.statusCode, JSON.stringify(headers)).toBe(403)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.json().error.message).toMatch(/^この操作はアプリの画面からのみ実行できます。/)
    }
    expect(await state()).toBe(before)
  })

  it('has no HEAD route', async () => {
    const before = await state()
    expect((await inject('HEAD', path())).statusCode).toBe(404)
    expect(await state()).toBe(before)
  })

  it('does its write for the app’s own fetch, uncached', async () => {
    const before = await state()
    const res = await inject('GET', path(), FROM_APP)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(await state()).not.toBe(before)
  })
})
