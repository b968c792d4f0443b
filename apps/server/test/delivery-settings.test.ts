import { ZDeliverySettingsResponse, ZErrorResponse } from '@teiki/contract'
import { DEFAULT_DELIVERY_SETTINGS } from '@teiki/domain'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deliverySettingsOf } from '../src/features/delivery/service.ts'
import type { AppInstance } from '../src/http/app.ts'
import { catalogPlan, createShop, testApp, testPool } from './support/fixtures.ts'

// 設定 › 配送設定 (issue 25 item 1): saved whole or not at all, each mistake named in Japanese.

let pool: pg.Pool
let app: AppInstance

beforeAll(async () => {
  pool = testPool()
  app = await testApp(pool)
})
afterAll(async () => {
  await app.close()
  await pool.end()
})

type Shop = Awaited<ReturnType<typeof createShop>>

function call(shop: Shop, method: 'GET' | 'PUT', payload?: object) {
  return app.inject({
    method,
    url: `/app-admin/delivery-settings?shop=${shop.domain}&secret=${shop.secret}`,
    ...(payload ? { payload } : {}),
  })
}

const okinawa = {
  carrier: 'yamato',
  leadDays: 2,
  extraDaysByPrefecture: { 'JP-47': 2, 'JP-01': 1 },
  closedYearEnd: true,
  closedDates: ['2027-05-05', '2027-05-03', '2027-05-05'],
  horizonDays: 21,
  cutoff: '15:00',
}

describe('GET/PUT /delivery-settings', () => {
  it('a new shop answers the defaults and ヤマト’s slots with their codes', async () => {
    const shop = await createShop(pool, { prefix: 'delivery-new', appPlan: catalogPlan('standard') })
    const res = await call(shop, 'GET')
    expect(res.statusCode).toBe(200)
    const body = ZDeliverySettingsResponse.parse(res.json())
    expect(body.settings).toEqual(DEFAULT_DELIVERY_SETTINGS)
    expect(body.slots).toEqual([
      { slot: 'AM', label: '午前中', code: '0812' },
      { slot: '14-16', label: '14時〜16時', code: '1416' },
      { slot: '16-18', label: '16時〜18時', code: '1618' },
      { slot: '18-20', label: '18時〜20時', code: '1820' },
      { slot: '19-21', label: '19時〜21時', code: '1921' },
    ])
  })

  it('saves the settings (closed dates sorted, once each); the other features read them; another shop keeps its own', async () => {
    const shop = await createShop(pool, { prefix: 'delivery-save', appPlan: catalogPlan('standard') })
    const other = await createShop(pool, { prefix: 'delivery-other', appPlan: catalogPlan('standard') })
    const res = await call(shop, 'PUT', okinawa)
    expect(res.statusCode).toBe(200)
    const saved = ZDeliverySettingsResponse.parse(res.json()).settings
    expect(saved).toEqual({ ...okinawa, closedDates: ['2027-05-03', '2027-05-05'] })
    expect(ZDeliverySettingsResponse.parse((await call(shop, 'GET')).json()).settings).toEqual(saved)
    expect(await deliverySettingsOf(pool, shop.id)).toEqual(saved)
    expect(ZDeliverySettingsResponse.parse((await call(other, 'GET')).json()).settings).toEqual(
      DEFAULT_DELIVERY_SETTINGS,
    )

    const sagawa = await call(shop, 'PUT', { ...okinawa, carrier: 'sagawa' })
    expect(ZDeliverySettingsResponse.parse(sagawa.json()).slots.map((s) => `${s.label}=${s.code}`)).toEqual([
      '午前中=01',
      '12時〜14時=12',
      '14時〜16時=14',
      '16時〜18時=16',
      '18時〜20時=18',
      '19時〜21時=19',
    ])
  })

  it.each<[string, object, string]>([
    [
      'an unknown carrier',
      { carrier: 'fedex' },
      '配送業者はヤマト運輸、佐川急便、日本郵便から選んでください',
    ],
    ['a lead of 0 days', { leadDays: 0 }, '最短お届け日数は1日以上で指定してください'],
    ['a lead in halves', { leadDays: 1.5 }, '最短お届け日数は整数で指定してください'],
    [
      'a prefecture that is not one',
      { extraDaysByPrefecture: { 'JP-48': 1 } },
      '都道府県コード JP-48 はありません',
    ],
    [
      '8 extra days',
      { extraDaysByPrefecture: { 'JP-47': 8 } },
      '都道府県ごとの追加日数は7日以内で指定してください',
    ],
    [
      'a closed day that does not exist',
      { closedDates: ['2027-02-30'] },
      '2027年2月30日は存在しない日付です',
    ],
    ['a cutoff of 24:00', { cutoff: '24:00' }, '当日の締め時刻は 12:00 のように指定してください'],
    [
      'a horizon shorter than the lead',
      { horizonDays: 7, leadDays: 6 },
      'お届け日を指定できる期間（7日）は最短お届け日数と追加日数の合計（8日）以上にしてください',
    ],
    ['an unknown field', { color: 'red' }, '不明な項目です: color'],
  ])('refuses %s with the reason, and saves nothing', async (_name, change, message) => {
    const shop = await createShop(pool, { prefix: 'delivery-bad', appPlan: catalogPlan('standard') })
    await call(shop, 'PUT', okinawa)
    const res = await call(shop, 'PUT', { ...okinawa, ...change })
    expect(res.statusCode).toBe(400)
    const error = ZErrorResponse.parse(res.json()).error
    expect(error.code).toBe('INVALID_INPUT')
    expect(error.message).toContain(message)
    expect(ZDeliverySettingsResponse.parse((await call(shop, 'GET')).json()).settings.cutoff).toBe('15:00')
  })
})
