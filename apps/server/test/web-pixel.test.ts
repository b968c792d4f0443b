import { ZErrorResponse, ZPixelSettings } from '@teiki/contract'
import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppInstance } from '../src/http/app.ts'
import { hashSecret } from '../src/http/auth.ts'
import { upsertShopInstall } from '../src/platform/shops-repo.ts'
import {
  buildTestApp,
  catalogPlan,
  STAMP,
  TEST_API_KEY,
  TEST_API_SECRET,
  testPool,
} from './support/fixtures.ts'

// The shop's web pixel through the platform (issue 14, item 5), against the emulator: its
// webPixelCreate validates the settings against extensions/teiki-pixel's toml, as the platform does.

const domainOf = (name: string) => `px-${name}-${STAMP}.myshopify.com`
const SECRET = 'pixel-test-secret'

let pool: pg.Pool
let app: AppInstance
let emulator: Emulator
let publicUrl = 'https://teiki.example.com'
/** Run once just before the app's next webPixelCreate reaches the platform (another process's create). */
let beforeNextCreate: (() => Promise<void>) | null = null

/** The app's platform HTTP client, with a hook to create a pixel between the app's read and its create. */
const racingFetch: typeof fetch = async (input, init) => {
  const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { operationName?: string }) : {}
  if (body.operationName === 'WebPixelCreate' && beforeNextCreate) {
    const hook = beforeNextCreate
    beforeNextCreate = null
    await hook()
  }
  return fetch(input, init)
}

beforeAll(async () => {
  pool = testPool()
  emulator = await createEmulator({
    shops: [],
    throttle: false,
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    controls: true,
  })
  const url = (await emulator.listen(0)).url
  app = await buildTestApp(pool, {
    platform: { adminOrigin: () => url, fetch: racingFetch, clientRetry: { maxRetries: 1, retryBaseMs: 1 } },
    traffic: { publicUrl: () => publicUrl },
  })
  await app.ready()
})
afterAll(async () => {
  await app.close()
  await emulator.close()
  await pool.end()
})

/** A shop installed the way the demo shop is (token from the emulator, a standalone secret). */
async function installed(name: string) {
  const domain = domainOf(name)
  const install = emulator.install(domain)
  await upsertShopInstall(pool, {
    domain,
    accessToken: install.accessToken,
    scopes: install.scopes,
    secretHash: hashSecret(SECRET),
  })
  await withPlan(domain)
  return domain
}

/** 流入元 is a feature of the スタンダード plan and up (ADR 0029): the shop holds プロ. */
async function withPlan(domain: string) {
  await pool.query('update shops set app_plan = $2 where domain = $1', [
    domain,
    JSON.stringify(catalogPlan('pro')),
  ])
  app.forgetShop(domain)
}

/** A call as the merchant: the standalone secret, or (`embedded`) a session token from App Bridge. */
async function call(domain: string, method: 'GET' | 'POST', path: string, embedded = false) {
  const q = new URLSearchParams(embedded ? {} : { shop: domain, secret: SECRET })
  const res = await app.inject({
    method,
    url: `/app-admin/traffic/${path}?${q}`,
    ...(embedded ? { headers: { authorization: `Bearer ${emulator.sessionToken(domain)}` } } : {}),
  })
  return { status: res.statusCode, body: res.json() }
}

const pixelCalls = (domain: string) =>
  emulator.callLog
    .filter((c) => c.shop === domain && c.rootFields.some((f) => f.startsWith('webPixel')))
    .map((c) => c.rootFields[0])
const platformPixel = (domain: string) => emulator.store.shop(domain)!.extra?.webPixel ?? null
async function stored(domain: string) {
  const { rows } = await pool.query(
    `select k.key, k.web_pixel_id, k.pixel_error from traffic_pixel_keys k join shops s on s.id = k.shop_id
     where s.domain = $1`,
    [domain],
  )
  return rows[0]
}

describe('install creates the shop pixel', () => {
  it('after the token exchange: webPixelCreate with the pixel key and the ingest URL, once', async () => {
    const domain = domainOf('install')
    const res = await app.inject({
      method: 'GET',
      url: '/app-admin/shop-currency-code',
      headers: { authorization: `Bearer ${emulator.sessionToken(domain)}` },
    })
    expect(res.statusCode).toBe(200)
    await expect
      .poll(async () => (await stored(domain))?.web_pixel_id ?? null, { timeout: 15_000 })
      .not.toBeNull()
    const row = await stored(domain)
    expect(platformPixel(domain)).toMatchObject({
      settings: { accountID: row.key, ingestUrl: `https://teiki.example.com/pixel/events?shop=${domain}` },
    })
    expect(row.web_pixel_id).toBe(`gid://shopify/WebPixel/${platformPixel(domain)!.id}`)
    expect(row.pixel_error).toBeNull()
    expect(pixelCalls(domain)).toEqual(['webPixel', 'webPixelCreate'])

    // The 流入元 screen reads it as connected, with the same settings, and asks nothing more.
    await withPlan(domain)
    const read = await call(domain, 'GET', 'pixel-settings', true)
    expect(ZPixelSettings.parse(read.body)).toMatchObject({
      accountID: row.key,
      connection: { status: 'connected', webPixelId: row.web_pixel_id, error: null },
    })
    expect(read.body.connection.connectedAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(pixelCalls(domain)).toEqual(['webPixel', 'webPixelCreate'])
  })
})

describe('ensure never creates a second pixel', () => {
  it('the screen connects a missing pixel; ensure again only reads; a new app URL updates it', async () => {
    const domain = await installed('again')
    const first = await call(domain, 'GET', 'pixel-settings')
    expect(first.body.connection.status).toBe('connected')
    const id = first.body.connection.webPixelId
    expect(pixelCalls(domain)).toEqual(['webPixel', 'webPixelCreate'])

    const again = await call(domain, 'POST', 'pixel-connection')
    expect(again.status).toBe(200)
    expect(again.body.connection).toMatchObject({ status: 'connected', webPixelId: id })
    expect(pixelCalls(domain)).toEqual(['webPixel', 'webPixelCreate', 'webPixel'])

    publicUrl = 'https://new.teiki.example.com'
    try {
      // The screen sees the recorded settings are stale and brings the platform's pixel up to date.
      const moved = await call(domain, 'GET', 'pixel-settings')
      expect(moved.body).toMatchObject({
        ingestUrl: `https://new.teiki.example.com/pixel/events?shop=${domain}`,
        connection: { status: 'connected', webPixelId: id },
      })
      expect(platformPixel(domain)!.settings.ingestUrl).toBe(moved.body.ingestUrl)
      expect(pixelCalls(domain)).toEqual([
        'webPixel',
        'webPixelCreate',
        'webPixel',
        'webPixel',
        'webPixelUpdate',
      ])
    } finally {
      publicUrl = 'https://teiki.example.com'
    }
  })

  it('a pixel the platform already holds (made by another process) is updated, not created again', async () => {
    const domain = await installed('held')
    const made = await emulator.graphql(domain, {
      query: `mutation { webPixelCreate(webPixel: { settings: "{\\"accountID\\":\\"someone-elses-key-123\\",\\"ingestUrl\\":\\"https://old.example.com/x\\",\\"conversionTags\\":\\"[]\\"}" }) { webPixel { id } userErrors { code } } }`,
    })
    const id = (made.data as { webPixelCreate: { webPixel: { id: string } } }).webPixelCreate.webPixel.id
    const res = await call(domain, 'POST', 'pixel-connection')
    expect(res.body.connection).toMatchObject({ status: 'connected', webPixelId: id })
    expect(platformPixel(domain)!.settings).toEqual({
      accountID: res.body.accountID,
      ingestUrl: res.body.ingestUrl,
      conversionTags: '[]',
    })
    expect(pixelCalls(domain).filter((f) => f === 'webPixelCreate')).toHaveLength(1)
  })
})

describe('サンクスページの計測タグ travel in the pixel settings (ADR 0039)', () => {
  it('a save of 設定 brings the platform pixel’s conversionTags up to date; 設定 says it is connected', async () => {
    const domain = await installed('tags')
    const settingsCall = async (method: 'GET' | 'PUT', payload?: object) => {
      const res = await app.inject({
        method,
        url: `/app-admin/settings?${new URLSearchParams({ shop: domain, secret: SECRET })}`,
        ...(payload ? { payload } : {}),
      })
      return { status: res.statusCode, body: res.json() }
    }
    const before = await settingsCall('GET')
    expect(before.body.pixel).toMatchObject({ status: 'connected', error: null })
    expect(platformPixel(domain)!.settings.conversionTags).toBe('[]')

    const tags = [
      {
        name: 'A8.net',
        url: 'https://px.a8.example/a8fly/earnings?so={order_id}&si={total}',
        subscriptionOnly: true,
      },
      { name: '全注文', url: 'https://ads.example/cv?o={order_id}', subscriptionOnly: false },
    ]
    const saved = await settingsCall('PUT', {
      settings: { ...before.body.settings, thankPageScript: JSON.stringify({ message: 'ありがとう', tags }) },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.pixel).toMatchObject({ status: 'connected', error: null })
    expect(JSON.parse(platformPixel(domain)!.settings.conversionTags as string)).toEqual(
      tags.map(({ url, subscriptionOnly }) => ({ url, subscriptionOnly })),
    )
    expect(pixelCalls(domain).at(-1)).toBe('webPixelUpdate')
    // Saving the same tags again sends nothing more to the platform.
    const calls = pixelCalls(domain).length
    await settingsCall('PUT', { settings: saved.body.settings })
    expect(pixelCalls(domain).filter((f) => f !== 'webPixel')).toHaveLength(
      pixelCalls(domain)
        .slice(0, calls)
        .filter((f) => f !== 'webPixel').length,
    )
  })
})

describe('a create lost to another process', () => {
  it('is TAKEN: the app reads the pixel the other made and brings it to its settings', async () => {
    const domain = await installed('race')
    let othersId = ''
    beforeNextCreate = async () => {
      const made = await emulator.graphql(domain, {
        query: `mutation { webPixelCreate(webPixel: { settings: "{\\"accountID\\":\\"another-process-key-1\\",\\"ingestUrl\\":\\"https://old.example.com/x\\",\\"conversionTags\\":\\"[]\\"}" }) { webPixel { id } } }`,
      })
      othersId = (made.data as { webPixelCreate: { webPixel: { id: string } } }).webPixelCreate.webPixel.id
    }
    const res = await call(domain, 'POST', 'pixel-connection')
    expect(res.status).toBe(200)
    expect(othersId).not.toBe('')
    expect(res.body.connection).toMatchObject({ status: 'connected', webPixelId: othersId, error: null })
    expect(platformPixel(domain)!.settings).toEqual({
      accountID: res.body.accountID,
      ingestUrl: res.body.ingestUrl,
      conversionTags: '[]',
    })
    expect(pixelCalls(domain)).toEqual([
      'webPixel',
      'webPixelCreate',
      'webPixelCreate',
      'webPixel',
      'webPixelUpdate',
    ])
  })
})

describe('refusals are clear and leave nothing half-written', () => {
  it('a userError: 422 in Japanese, the refusal recorded, no pixel id; the button connects it later', async () => {
    const domain = await installed('refused')
    emulator.faults.failMutation('webPixelCreate', {
      code: 'INVALID_SETTINGS',
      field: ['webPixel', 'settings'],
      message: 'Settings accountID is too short.',
    })
    const res = await call(domain, 'POST', 'pixel-connection')
    expect(res.status).toBe(422)
    const { error } = ZErrorResponse.parse(res.body)
    expect(error.code).toBe('PLATFORM_USER_ERROR')
    expect(error.message).toMatch(
      /^Shopify がウェブピクセルの接続を受け付けませんでした：ウェブピクセルの設定値/,
    )
    expect(error.message).toContain('詳細: Settings accountID is too short.')
    expect(await stored(domain)).toMatchObject({ web_pixel_id: null, pixel_error: error.message })
    expect(platformPixel(domain)).toBeNull()

    // The screen shows it failed, and does not send the refusal again by itself.
    const read = await call(domain, 'GET', 'pixel-settings')
    expect(read.body.connection).toMatchObject({ status: 'failed', webPixelId: null, error: error.message })
    expect(pixelCalls(domain)).toEqual(['webPixel', 'webPixelCreate'])

    const retried = await call(domain, 'POST', 'pixel-connection')
    expect(retried.body.connection).toMatchObject({ status: 'connected', error: null })
    expect(platformPixel(domain)).not.toBeNull()
  })

  it('without the pixel scopes: the platform denies access, the merchant is told to update the app', async () => {
    const domain = await installed('scopes')
    const shop = emulator.store.shop(domain)!
    shop.installation.scopes = shop.installation.scopes.filter((s) => s !== 'write_pixels')
    const res = await call(domain, 'POST', 'pixel-connection')
    expect(res.status).toBe(422)
    expect(res.body.error.message).toMatch(/権限.*アプリを更新/)
    expect(await stored(domain)).toMatchObject({ web_pixel_id: null })
    expect(platformPixel(domain)).toBeNull()
  })

  it('without a public app URL nothing is sent to the platform', async () => {
    const domain = await installed('no-url')
    publicUrl = ''
    try {
      const res = await call(domain, 'POST', 'pixel-connection')
      expect(res.status).toBe(409)
      expect(res.body.error.message).toMatch(/アプリの公開URLが設定されていない/)
      expect(pixelCalls(domain)).toEqual([])
    } finally {
      publicUrl = 'https://teiki.example.com'
    }
  })
})
