import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { parseFlagSetting } from '../src/features/shop-flags/command.ts'
import { shopFlags } from '../src/features/shop-flags/service.ts'
import { createShop, testPool } from './support/fixtures.ts'

const ROOT = join(import.meta.dirname, '../../..')
let pool: pg.Pool

beforeAll(() => {
  pool = testPool()
})
afterAll(() => pool.end())

/** `npm run flags -- …` as an operator runs it (the script through tsx), on the test database. */
function flags(args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/flags.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    encoding: 'utf8',
  })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

describe('npm run flags', () => {
  it('sets flags of one shop in one run, prints them, and leaves other shops alone', async () => {
    const shop = await createShop(pool, { prefix: 'flags-cmd' })
    const other = await createShop(pool, { prefix: 'flags-cmd-other' })
    const run = flags(['--shop', shop.domain, '--set', 'test_shop=on', '--set', 'template_test=on'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      shop: shop.domain,
      flags: {
        test_shop: true,
        two_customer_groups: false,
        parent_products: false,
        template_test: true,
        delivery_prep_days: false,
      },
    })
    expect((await shopFlags(pool, shop.id)).test_shop).toBe(true)
    expect(Object.values(await shopFlags(pool, other.id)).every((v) => v === false)).toBe(true)
    expect(flags(['--shop', shop.domain, '--set', 'test_shop=off']).code).toBe(0)
    expect(await shopFlags(pool, shop.id)).toMatchObject({ test_shop: false, template_test: true })
    // Without --set: only prints.
    expect(JSON.parse(flags(['--shop', shop.domain]).stdout).flags.template_test).toBe(true)
  })

  it('refuses an unknown flag, a wrong value or an unknown shop (exit 2), changing nothing', async () => {
    const shop = await createShop(pool, { prefix: 'flags-bad' })
    const unknown = flags(['--shop', shop.domain, '--set', 'vip=on'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('unknown flag "vip"')
    expect(flags(['--shop', shop.domain, '--set', 'test_shop=maybe']).code).toBe(2)
    const missing = flags(['--shop', 'nobody.myshopify.com', '--set', 'test_shop=on'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('インストールされていません')
    expect(flags(['--set', 'test_shop=on']).code).toBe(2)
    expect((await shopFlags(pool, shop.id)).test_shop).toBe(false)
  })

  it('--help names every flag and its effect', () => {
    const help = flags(['--help'])
    expect(help.code).toBe(0)
    for (const flag of [
      'test_shop',
      'two_customer_groups',
      'parent_products',
      'template_test',
      'delivery_prep_days',
    ]) {
      expect(help.stdout).toContain(flag)
    }
  })

  it.each([
    ['parent_products=on', { flag: 'parent_products', enabled: true }],
    ['delivery_prep_days=false', { flag: 'delivery_prep_days', enabled: false }],
    ['test_shop', '"test_shop": write test_shop=on or test_shop=off'],
    ['test_shop=on=off', '"test_shop=on=off": write test_shop=on or test_shop=off'],
  ])('parses %s', (text, expected) => {
    expect(parseFlagSetting(text)).toEqual(expected)
  })
})
