import { createEmulator, type Emulator } from '@teiki/shopify-emulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashSecret } from '../src/http/auth.ts'
import { type AdminClient, createAdminClient } from '../src/platform/admin-client.ts'
import { findInstalledShop, upsertShopInstall } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { useTestApp } from './support/fixtures.ts'

const DOMAIN = `sync-${process.pid}-${Date.now().toString(36)}.myshopify.com`
let emulator: Emulator
let client: AdminClient

const env = useTestApp()
beforeAll(async () => {
  emulator = await createEmulator({
    shops: [{ domain: DOMAIN, contracts: 60 }],
    now: new Date('2026-11-22T00:00:00Z'),
    throttle: false,
  })
  const { url } = await emulator.listen(0)
  const install = emulator.install(DOMAIN)
  await upsertShopInstall(env.pool, {
    domain: DOMAIN,
    accessToken: install.accessToken,
    scopes: install.scopes,
    secretHash: hashSecret('s3cret-sync'),
  })
  client = createAdminClient({ shop: DOMAIN, accessToken: install.accessToken, origin: url })
})
afterAll(() => emulator.close())

const shopRow = async () => (await findInstalledShop(env.pool, DOMAIN))!
const platform = () => emulator.store.shop(DOMAIN)!

describe('full sync from the Admin API into the mirror', () => {
  it('copies every contract, customer, product and selling plan group of the platform', async () => {
    const summary = await fullSync(env.pool, client, await shopRow())
    const shop = await shopRow()
    expect(summary.contracts).toBe(platform().contracts.length)
    expect(summary.customers).toBe(platform().customers.length)
    const { rows } = await env.pool.query<{ status: string; n: string }>(
      'select status, count(*) as n from subscription_contracts where shop_id = $1 group by status',
      [shop.id],
    )
    const mirrored = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
    const expected: Record<string, number> = {}
    for (const c of platform().contracts) expected[c.status] = (expected[c.status] ?? 0) + 1
    expect(mirrored).toEqual(expected)
    expect(shop.currency_code).toBe('JPY')
    expect(shop.iana_timezone).toBe('Asia/Tokyo')
    expect(shop.synced_at).not.toBeNull()

    const lines = await env.pool.query(
      'select count(*)::int as n from subscription_lines where shop_id = $1',
      [shop.id],
    )
    expect(lines.rows[0].n).toBe(platform().contracts.reduce((n, c) => n + c.lines.length, 0))
  })

  it('logs one created event per contract, and a status move for those not active', async () => {
    const shop = await shopRow()
    const { rows } = await env.pool.query<{ type: string; n: number }>(
      `select type, count(*)::int as n from contract_events where shop_id = $1 group by type order by type`,
      [shop.id],
    )
    const notActive = platform().contracts.filter((c) => c.status !== 'ACTIVE').length
    expect(rows).toEqual([
      { type: 'created', n: platform().contracts.length },
      { type: 'status_changed', n: notActive },
    ])
  })

  it('changes nothing when run again with nothing new on the platform', async () => {
    const again = await fullSync(env.pool, client, await shopRow())
    expect(again.contracts).toBe(0)
    expect(again.events).toBe(0)
  })

  it('picks up a renamed customer and shows the new name in the list', async () => {
    const contract = platform().contracts[0]!
    const customer = platform().customers.find((c) => c.id === contract.customerId)!
    customer.lastName = '改名'
    customer.displayName = `改名 ${customer.firstName}`
    customer.updatedAt = Date.now()
    await fullSync(env.pool, client, await shopRow())

    const res = await env.app.inject({
      method: 'GET',
      url: `/app-admin/subscriptions/search?shop=${DOMAIN}&secret=s3cret-sync&contractId=${contract.id}`,
    })
    expect(res.json().subscriptions[0].displayName).toBe(`改名 ${customer.firstName}`)
  })

  it('never moves a contract backwards when an older state arrives', async () => {
    const shop = await shopRow()
    const contract = platform().contracts.find((c) => c.status === 'ACTIVE')!
    await env.pool.query(
      `update subscription_contracts set status = 'PAUSED', updated_at = now() + interval '1 hour'
       where shop_id = $1 and id = $2`,
      [shop.id, contract.id],
    )
    contract.updatedAt = Date.now() // newer than the last sync, older than the mirror's row
    await fullSync(env.pool, client, await shopRow())
    const { rows } = await env.pool.query(
      'select status from subscription_contracts where shop_id = $1 and id = $2',
      [shop.id, contract.id],
    )
    expect(rows[0].status).toBe('PAUSED')
  })
})
