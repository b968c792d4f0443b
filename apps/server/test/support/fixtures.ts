import { randomBytes } from 'node:crypto'
import { japaneseName } from '@teiki/domain'
import type pg from 'pg'
import { afterAll, beforeAll, inject } from 'vitest'
import { createPool, setPreparedStatements } from '../../src/db/pool.ts'
import { type AppInstance, type BuildAppOptions, buildApp } from '../../src/http/app.ts'
import type { PlatformOptions } from '../../src/http/app-instance.ts'
import { hashSecret } from '../../src/http/auth.ts'
import { signSessionToken } from '../../src/http/session-token.ts'
import { nameKey, phoneRev } from '../../src/sync/search-keys.ts'

export const TEST_API_KEY = 'test-client-id'
export const TEST_API_SECRET = 'test-client-secret-0123456789'

/** This test process's mark: the shops (and queue schemas) a file makes never meet another run's. */
export const STAMP = `${process.pid}-${Date.now().toString(36)}`

/** A shop domain of this run: `label-STAMP.myshopify.com`. */
export const testDomain = (label: string) => `${label}-${STAMP}.myshopify.com`

/** A domain of this run per key: `prefix-key-STAMP.myshopify.com`. */
export function testDomains<const K extends string>(prefix: string, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, testDomain(`${prefix}-${key}`)])) as Record<K, string>
}

export function testPool(): pg.Pool {
  const postgres = inject('databaseKind') === 'postgresql'
  setPreparedStatements(postgres)
  return createPool(inject('databaseUrl'), 4, { genericPlans: postgres })
}

/** Client retries short enough for fault tests: two, a millisecond apart. */
export const QUICK_RETRIES = { maxRetries: 2, retryBaseMs: 1 }

type TestAppOptions = Omit<Partial<BuildAppOptions>, 'platform'> & { platform?: Partial<PlatformOptions> }

/**
 * The app as the tests build it: the test client id and secret, only fatal logs, the platform at
 * each shop's own origin unless `platform` says otherwise (an emulator's `adminOrigin`, quicker
 * retries); the other options added or overriding. Not yet ready.
 */
export function buildTestApp(pool: pg.Pool, opts: TestAppOptions = {}): Promise<AppInstance> {
  const { platform, ...more } = opts
  return buildApp({
    db: pool,
    platform: { adminOrigin: (shop) => `https://${shop}`, apiKey: TEST_API_KEY, ...platform },
    apiSecret: TEST_API_SECRET,
    logger: { level: 'fatal' },
    ...more,
  })
}

export async function testApp(pool: pg.Pool): Promise<AppInstance> {
  // Unexpected errors (500s) are printed so a failing test shows its cause.
  const app = await buildTestApp(pool, { logger: { level: 'error' } })
  await app.ready()
  return app
}

/**
 * What `start` makes, for the file: made before its tests (vitest's beforeAll, `timeout` ms
 * allowed), closed after them. The object answered is filled in once made.
 */
export function useStarted<T extends { close(): Promise<void> }>(
  start: () => Promise<T>,
  timeout = 60_000,
): T {
  const made = {} as T
  beforeAll(async () => {
    Object.assign(made, await start())
  }, timeout)
  afterAll(() => made.close?.())
  return made
}

export type TestApp = { pool: pg.Pool; app: AppInstance }

/**
 * The file's app (testApp) on the test database: ready before its tests (vitest's beforeAll),
 * closed after them. The object answered is filled in when it is ready.
 */
export function useTestApp(): TestApp {
  const env = {} as TestApp
  beforeAll(async () => {
    env.pool = testPool()
    env.app = await testApp(env.pool)
  })
  afterAll(async () => {
    await env.app?.close()
    await env.pool?.end()
  })
  return env
}

/** A session token of `shop` as App Bridge gives it (valid for 60 s); overrides make it wrong. */
export function testSessionToken(
  shop: string,
  overrides: Record<string, unknown> = {},
  secret = TEST_API_SECRET,
  alg = 'HS256',
): string {
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: TEST_API_KEY,
    sub: '42',
    exp: now + 60,
    nbf: now - 1,
    iat: now - 1,
    jti: randomBytes(8).toString('hex'),
    sid: 'y',
    ...overrides,
  }
  return signSessionToken(claims, secret, alg)
}

let shopCounter = 0

/** A stored app plan record of a catalogue plan (`Teiki スタンダード`, ¥9,800), as the app keeps it. */
export function catalogPlan(
  key: 'light' | 'standard' | 'pro',
  status: 'ACTIVE' | 'CANCELLED' | 'DECLINED' | 'EXPIRED' | 'FROZEN' = 'ACTIVE',
) {
  const plan = {
    light: ['ライト', '4980.0'],
    standard: ['スタンダード', '9800.0'],
    pro: ['プロ', '29800.0'],
  }[key]
  return {
    id: { light: '29000000011', standard: '29000000012', pro: '29000000013' }[key],
    name: `Teiki ${plan[0]}`,
    status,
    price: { amount: plan[1]!, currencyCode: 'JPY' },
    trialDays: 14,
    currentPeriodEnd: null,
    test: false,
  }
}

/** A fresh installed shop with its own secret: every test file works in its own shops. */
export async function createShop(
  pool: pg.Pool,
  opts: { prefix?: string; timezone?: string; appPlan?: unknown; scopes?: string[] } = {},
): Promise<{ id: string; domain: string; secret: string }> {
  const domain = `${opts.prefix ?? 'test'}-${process.pid}-${Date.now().toString(36)}-${shopCounter++}.myshopify.com`
  const secret = randomBytes(12).toString('hex')
  const { rows } = await pool.query<{ id: string }>(
    `insert into shops (domain, secret_hash, access_token, scopes, iana_timezone, app_plan)
     values ($1, $2, 'shpat_test', $3, $4, $5) returning id`,
    [
      domain,
      hashSecret(secret),
      opts.scopes ?? [
        'write_own_subscription_contracts',
        'write_customers',
        'write_products',
        'write_orders',
        'write_themes',
        'write_script_tags',
        'write_shipping',
        'read_locations',
        'write_pixels',
        'read_customer_events',
        'write_validations',
      ],
      opts.timezone ?? 'Asia/Tokyo',
      JSON.stringify(
        opts.appPlan === undefined
          ? // The catalogue's top plan: every feature (ADR 0029); tests of the tiers pass their own.
            catalogPlan('pro')
          : opts.appPlan,
      ),
    ],
  )
  return { id: rows[0]!.id, domain, secret }
}

export type SeedContract = {
  id: string
  status?: string
  customer: { id: string; firstName: string; lastName: string; email: string; phone?: string | null }
  nextBillingDate: string | null
  variantIds?: string[]
}

/** Writes contracts straight into the mirror (search tests do not need the platform). */
export async function seedContracts(pool: pg.Pool, shopId: string, contracts: SeedContract[]): Promise<void> {
  for (const c of contracts) {
    await pool.query(
      `insert into customers (shop_id, id, first_name, last_name, display_name, name_key, email, phone, phone_rev)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict do nothing`,
      [
        shopId,
        c.customer.id,
        c.customer.firstName,
        c.customer.lastName,
        japaneseName(c.customer),
        nameKey(`${c.customer.lastName}${c.customer.firstName}`),
        c.customer.email,
        c.customer.phone ?? null,
        phoneRev(c.customer.phone),
      ],
    )
    await pool.query(
      `insert into subscription_contracts (shop_id, id, status, customer_id, next_billing_date, created_at, updated_at,
         customer_display_name)
       values ($1, $2, $3, $4, $5, now(), now(), $6)`,
      [shopId, c.id, c.status ?? 'ACTIVE', c.customer.id, c.nextBillingDate, japaneseName(c.customer)],
    )
    for (const [position, variantId] of (c.variantIds ?? []).entries()) {
      await pool.query(
        `insert into subscription_lines (shop_id, contract_id, id, variant_id, title, quantity, position)
         values ($1, $2, $3, $4, 'テスト商品', 1, $5)`,
        [shopId, c.id, `gid://shopify/SubscriptionLine/${c.id}-${position}`, variantId, position],
      )
    }
  }
}
