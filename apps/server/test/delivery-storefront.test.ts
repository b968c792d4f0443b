import { ZDeliverySettingsResponse } from '@teiki/contract'
import { afterEach, describe, expect, it } from 'vitest'
import { useEmulatedApp } from './support/emulated-app.ts'
import { testDomains } from './support/fixtures.ts'

// Issue 25 item 2: saving 配送設定 publishes the storefront's calendar, the app-data metafield
// teiki.delivery the product block reads (carrier's slots, closed dates to come, far prefectures);
// a refusal by the platform keeps the saved settings and says so in Japanese.

const shops = testDomains('dlvsf', ['ok', 'down'])
const env = useEmulatedApp({
  shops: Object.values(shops).map((domain) => ({ domain, contracts: 3 })),
  secret: 'delivery-storefront-secret',
})
afterEach(() => env.emulator.faults.reset())

const body = {
  carrier: 'sagawa',
  leadDays: 2,
  extraDaysByPrefecture: { 'JP-47': 2, 'JP-01': 1 },
  closedYearEnd: true,
  closedDates: ['2026-01-05', '2027-05-05'],
  horizonDays: 21,
  cutoff: '15:00',
}

const url = (domain: string) =>
  `/app-admin/delivery-settings?shop=${domain}&secret=delivery-storefront-secret`
const put = async (domain: string) => {
  const res = await env.app.inject({ method: 'PUT', url: url(domain), payload: body })
  return { status: res.statusCode, json: async () => res.json() }
}

const metafield = (domain: string) =>
  env.emulator.store
    .shop(domain)!
    .extra?.appMetafields?.find((m) => m.namespace === 'teiki' && m.key === 'delivery')

describe('PUT /delivery-settings → teiki.delivery', () => {
  it('writes the carrier’s slots, the closed dates still to come and the far prefectures’ note', async () => {
    const res = await put(shops.ok)
    expect(res.status).toBe(200)
    expect(ZDeliverySettingsResponse.parse(await res.json()).storefrontProblem).toBeNull()
    const value = JSON.parse(metafield(shops.ok)!.value)
    expect(value).toMatchObject({ carrier: 'sagawa', leadDays: 2, horizonDays: 21, cutoff: '15:00' })
    // 2026-01-05 is past on the app's clock (2026-11): left out.
    expect(value.closedDates).toEqual(['2027-05-05'])
    expect(value.slots.map((s: { label: string; code: string }) => `${s.label}=${s.code}`)).toEqual([
      '午前中=01',
      '12時〜14時=12',
      '14時〜16時=14',
      '16時〜18時=16',
      '18時〜20時=18',
      '19時〜21時=19',
    ])
    expect(value.far_note).toBe('お届けまで北海道は+1日、沖縄県は+2日かかります。')
    expect(metafield(shops.down)).toBeUndefined()
  })

  it('the platform failing: the settings are saved, the answer says the calendar was not updated', async () => {
    env.emulator.faults.set({ errorRate: 1 })
    const res = await put(shops.down)
    env.emulator.faults.reset()
    expect(res.status).toBe(200)
    const answer = ZDeliverySettingsResponse.parse(await res.json())
    expect(answer.settings.carrier).toBe('sagawa')
    expect(answer.storefrontProblem).toMatch(/^配送設定は保存しました。.*(Shopify|ストア)/)
    expect(metafield(shops.down)).toBeUndefined()
    const read = await env.app.inject({ method: 'GET', url: url(shops.down) })
    expect(ZDeliverySettingsResponse.parse(read.json()).settings.carrier).toBe('sagawa')
  })
})
