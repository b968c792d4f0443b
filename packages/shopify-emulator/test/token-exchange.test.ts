import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../src/server.ts'
import { adminCall } from './support/client.ts'
import { SHOP, smallEmulator } from './support/harness.ts'

const apiKey = 'client-id-123'
const apiSecret = 'client-secret-456'
const NEW_SHOP = 'brand-new.myshopify.com'

describe('token exchange', () => {
  let emulator: Emulator
  let url: string
  const exchange = (params: Record<string, string>, json = false) =>
    fetch(`${url}/admin/oauth/access_token`, {
      method: 'POST',
      headers: {
        'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
    })
  const request = (subject: string) => ({
    client_id: apiKey,
    client_secret: apiSecret,
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: subject,
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
  })

  beforeAll(async () => {
    emulator = await smallEmulator({ apiKey, apiSecret })
    url = (await emulator.listen(0)).url
  })
  afterAll(() => emulator.close())

  it('exchanges a valid session token for the shop offline token (form and JSON bodies)', async () => {
    const res = await exchange(request(emulator.sessionToken(SHOP)))
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toEqual({
      access_token: emulator.install(SHOP).accessToken,
      scope: expect.stringContaining('write_own_subscription_contracts'),
    })
    const viaJson = await exchange(request(emulator.sessionToken(SHOP)), true)
    expect((await viaJson.json()).access_token).toBe(body.access_token)
  })

  it('installs the app on a shop it has never seen, and the token works', async () => {
    const res = await exchange(request(emulator.sessionToken(NEW_SHOP)))
    const { access_token } = await res.json()
    const { body } = await adminCall(url, access_token, '{ shop { myshopifyDomain } }')
    expect(body.data.shop.myshopifyDomain).toBe(NEW_SHOP)
  })

  it.each([
    [
      'a token signed with another secret',
      () => request(emulator.sessionToken(SHOP, { apiSecret: 'other' })),
      400,
      'invalid_subject_token',
    ],
    [
      'a token for another app',
      () => request(emulator.sessionToken(SHOP, { apiKey: 'other-app' })),
      400,
      'invalid_subject_token',
    ],
    [
      'an expired token',
      () => request(emulator.sessionToken(SHOP, { now: Date.now() - 120_000 })),
      400,
      'invalid_subject_token',
    ],
    ['garbage', () => request('not.a.jwt'), 400, 'invalid_subject_token'],
    [
      'a wrong client secret',
      () => ({ ...request(emulator.sessionToken(SHOP)), client_secret: 'nope' }),
      401,
      'invalid_client',
    ],
    [
      'another grant type',
      () => ({ ...request(emulator.sessionToken(SHOP)), grant_type: 'client_credentials' }),
      400,
      'unsupported_grant_type',
    ],
  ])('refuses %s', async (_label, params, status, error) => {
    const res = await exchange(params())
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ error, error_description: expect.any(String) })
  })
})
