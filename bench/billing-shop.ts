import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator, type EmulatorOptions } from '@teiki/shopify-emulator'
import pg from 'pg'
import { migrate } from '../apps/server/src/db/migrate.ts'
import { createPool } from '../apps/server/src/db/pool.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../apps/server/src/features/shops/repo.ts'
import {
  type PacedShopClients,
  sharedShopClients,
} from '../apps/server/src/features/subscriptions/shop-client.ts'
import { type AppInstance, buildApp } from '../apps/server/src/http/app.ts'
import { hashSecret } from '../apps/server/src/http/auth.ts'
import { fullSync } from '../apps/server/src/sync/full-sync.ts'

/** The billing benches' run moment: contracts are due an hour before it. */
export const RUN_AT = new Date('2026-11-25T01:00:00Z')

export type BillingShop = {
  pool: pg.Pool
  emulator: Emulator
  app: AppInstance
  /** The app's own HTTP address (it listens on a free port). */
  appUrl: string
  clients: PacedShopClients
  shop: ShopRow
  domain: string
  dueIds: number[]
  close(): Promise<void>
}

/**
 * A billing bench's world: a fresh database `dbName`, an in-process emulator with one shop of
 * Plus plan (`due` × 3 generated contracts: they mix statuses and card states), the app on it
 * listening on HTTP, the shop installed (`secret` for the standalone login) and synced, and
 * `due` ACTIVE contracts with a valid card due an hour before RUN_AT — every other ACTIVE
 * contract far ahead — on the platform and in the mirror alike.
 */
export async function startBillingShop(opts: {
  baseUrl: string
  dbName: string
  domain: string
  due: number
  apiKey: string
  apiSecret: string
  secret?: string
  emulator: Pick<EmulatorOptions, 'throttle' | 'billingDelayMs'>
  log: (line: string) => void
}): Promise<BillingShop> {
  const { domain } = opts
  const pool = createPool(await freshDatabase(opts.baseUrl, opts.dbName), 8)
  await migrate(pool)
  const emulator = await createEmulator({
    shops: [{ domain, contracts: Math.ceil(opts.due * 3), plan: 'Shopify Plus' }],
    now: new Date('2026-11-22T00:00:00Z'),
    apiKey: opts.apiKey,
    apiSecret: opts.apiSecret,
    ...opts.emulator,
  })
  let url = ''
  const app = await buildApp({
    db: pool,
    platform: { adminOrigin: () => url, apiKey: opts.apiKey },
    apiSecret: opts.apiSecret,
    logger: { level: 'fatal' },
  })
  const close = async () => {
    await app.close()
    await emulator.close()
    await pool.end()
  }
  try {
    url = (await emulator.listen(0)).url
    await app.listen({ port: 0, host: '127.0.0.1' })
    const install = emulator.install(domain)
    await upsertShopInstall(pool, {
      domain,
      accessToken: install.accessToken,
      scopes: install.scopes,
      ...(opts.secret ? { secretHash: hashSecret(opts.secret) } : {}),
    })
    const clients = sharedShopClients(app.platformOptions)
    const synced = (await findInstalledShop(pool, domain))!
    opts.log(`syncing ${emulator.store.shop(domain)!.contracts.length} contracts…`)
    await fullSync(pool, clients.clientFor(synced), synced)
    const dueIds = await arrangeDue(emulator, pool, synced.id, domain, opts.due)
    const shop = (await findInstalledShop(pool, domain))!
    const appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    return { pool, emulator, app, appUrl, clients, shop, domain, dueIds, close }
  } catch (error) {
    await close()
    throw error
  }
}

async function arrangeDue(emulator: Emulator, pool: pg.Pool, shopId: string, domain: string, due: number) {
  const platform = emulator.store.shop(domain)!
  const dueAt = new Date(RUN_AT.getTime() - 3_600_000)
  const far = new Date('2027-06-01T01:00:00Z')
  const chargeable = platform.contracts.filter((c) => {
    const pm = platform.paymentMethods.find((p) => p.id === c.paymentMethodId)
    const card = pm?.instrument as { expiryYear?: number } | undefined
    return c.status === 'ACTIVE' && pm && pm.revokedAt === null && (card?.expiryYear ?? 9999) >= 2027
  })
  if (chargeable.length < due) throw new Error(`only ${chargeable.length} chargeable contracts`)
  const dueIds = chargeable.slice(0, due).map((c) => c.id)
  const isDue = new Set(dueIds)
  for (const c of platform.contracts) {
    if (c.status === 'ACTIVE') c.nextBillingDate = (isDue.has(c.id) ? dueAt : far).getTime()
  }
  await pool.query(
    `update subscription_contracts set next_billing_date = case when id = any($2::bigint[]) then $3::timestamptz
       else $4::timestamptz end where shop_id = $1 and status = 'ACTIVE'`,
    [shopId, dueIds, dueAt, far],
  )
  return dueIds
}

async function freshDatabase(baseUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const target = new URL(baseUrl)
  target.pathname = `/${name}`
  return target.toString()
}
