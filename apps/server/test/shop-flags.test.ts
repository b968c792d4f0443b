import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isFlagOn,
  isShopFlag,
  SHOP_FLAGS,
  setShopFlag,
  shopFlags,
} from '../src/features/shop-flags/service.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { testDomain, testPool } from './support/fixtures.ts'

const A = testDomain('flags-a')
const B = testDomain('flags-b')
let pool: pg.Pool
const ids: Record<string, string> = {}

beforeAll(async () => {
  pool = testPool()
  for (const domain of [A, B]) {
    await upsertShopInstall(pool, { domain, accessToken: 't', scopes: [] })
    ids[domain] = (await findInstalledShop(pool, domain))!.id
  }
})
afterAll(() => pool?.end())

describe('per-shop flags', () => {
  it('are all off for a shop nobody set', async () => {
    const flags = await shopFlags(pool, ids[A]!)
    expect(Object.keys(flags).sort()).toEqual([...SHOP_FLAGS].sort())
    expect(Object.values(flags).every((on) => on === false)).toBe(true)
  })

  it('are set per shop, and switched off again', async () => {
    await setShopFlag(pool, ids[A]!, 'parent_products', true)
    expect(await isFlagOn(pool, ids[A]!, 'parent_products')).toBe(true)
    expect(await isFlagOn(pool, ids[B]!, 'parent_products')).toBe(false)
    expect((await shopFlags(pool, ids[A]!)).test_shop).toBe(false)
    await setShopFlag(pool, ids[A]!, 'parent_products', false)
    expect(await isFlagOn(pool, ids[A]!, 'parent_products')).toBe(false)
  })

  it('knows its flag names and nothing else', () => {
    expect(isShopFlag('template_test')).toBe(true)
    expect(isShopFlag('admin')).toBe(false)
  })

  it('refuses an unknown flag in the database too', async () => {
    await expect(
      pool.query(`insert into shop_flags (shop_id, flag, enabled) values ($1, 'admin', true)`, [ids[B]!]),
    ).rejects.toThrow()
  })
})
