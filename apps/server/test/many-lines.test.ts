import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ZSubscriptionDetail } from '@teiki/contract'
import { signWebhook } from '@teiki/shopify-emulator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runBilling } from '../src/billing/run.ts'
import { runExport } from '../src/features/exports/run.ts'
import { createExportJob } from '../src/features/exports/service.ts'
import { toGid } from '../src/platform/gid.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { type EmulatedApp, startEmulatedApp } from './support/emulated-app.ts'
import { STAMP, TEST_API_SECRET, testDomain } from './support/fixtures.ts'

// Issue 12 item 8: contracts with more lines than one page (big boxes: 64 and 130 lines in the
// generated shops) are kept whole on every path that reads lines — before, the sync asked for
// the first 20 and replaced the mirror's lines with them.

const DOMAIN = testDomain('many-lines')
const SECRET = 's3cret-many-lines'

let env: EmulatedApp
let shopId: string
/** The generated big boxes, 64 and 130 lines (demo-data/many-lines.ts). */
let boxes: Array<{ id: number; lines: number }>

beforeAll(async () => {
  // 400 contracts: two big boxes.
  env = await startEmulatedApp({ shops: [{ domain: DOMAIN, contracts: 400 }], secret: SECRET })
  shopId = env.shopIds[DOMAIN]!
  boxes = env.emulator.store
    .shop(DOMAIN)!
    .contracts.filter((c) => c.lines.length > 20)
    .map((c) => ({ id: c.id, lines: c.lines.length }))
})
afterAll(() => env?.close())

const platformLines = (id: number) =>
  env.emulator.store
    .shop(DOMAIN)!
    .contracts.find((c) => c.id === id)!
    .lines.map((l) => String(l.id))

async function mirrorLines(id: number): Promise<string[]> {
  const { rows } = await env.pool.query<{ id: string }>(
    'select id from subscription_lines where shop_id = $1 and contract_id = $2 order by position',
    [shopId, id],
  )
  return rows.map((r) => r.id.slice(r.id.lastIndexOf('/') + 1))
}

const auth = `shop=${DOMAIN}&secret=${SECRET}`

describe('contracts with more lines than a page', () => {
  it('the generated shop has the big boxes this test is about', () => {
    expect(boxes.map((b) => b.lines)).toEqual([64, 130])
  })

  it('the paged sync mirrors every line, in order', async () => {
    const shop = (await findInstalledShop(env.pool, DOMAIN))!
    await fullSync(env.pool, env.clients[DOMAIN]!, shop, { bulk: false })
    for (const box of boxes) expect(await mirrorLines(box.id)).toEqual(platformLines(box.id))
  })

  it('the bulk sync mirrors every line too', async () => {
    await env.pool.query('delete from subscription_lines where shop_id = $1', [shopId])
    await env.pool.query('update shops set synced_at = null where id = $1', [shopId])
    const shop = (await findInstalledShop(env.pool, DOMAIN))!
    await fullSync(env.pool, env.clients[DOMAIN]!, shop, { bulk: {} })
    for (const box of boxes) expect(await mirrorLines(box.id)).toEqual(platformLines(box.id))
  })

  it('a contract webhook keeps all 130 lines (the refetch reads on past the first page)', async () => {
    const box = boxes[1]!
    const contract = env.emulator.store.shop(DOMAIN)!.contracts.find((c) => c.id === box.id)!
    contract.note = '大きな箱'
    contract.updatedAt = Date.now()
    env.emulator.store.changed()
    const body = JSON.stringify({
      id: box.id,
      admin_graphql_api_id: toGid('SubscriptionContract', box.id),
    })
    const res = await env.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-shopify-hmac-sha256': signWebhook(body, TEST_API_SECRET),
        'x-shopify-topic': 'subscription_contracts/update',
        'x-shopify-shop-domain': DOMAIN,
        'x-shopify-webhook-id': `many-lines-${STAMP}`,
      },
      payload: body,
    })
    expect(res.statusCode).toBe(200)
    const { rows } = await env.pool.query(
      'select note from subscription_contracts where shop_id = $1 and id = $2',
      [shopId, box.id],
    )
    expect(rows[0].note).toBe('大きな箱')
    expect(await mirrorLines(box.id)).toEqual(platformLines(box.id))
  })

  it('the detail page shows all 130 lines with their pricing', async () => {
    const box = boxes[1]!
    const res = await env.app.inject({ url: `/app-admin/subscriptions/${box.id}?${auth}` })
    expect(res.statusCode).toBe(200)
    const detail = ZSubscriptionDetail.parse(res.json())
    expect(detail.lines.map((l) => l.id)).toEqual(platformLines(box.id))
    expect(detail.lines.at(-1)!.currentPrice.currencyCode).toBe('JPY')
  })

  it('a line beyond the first page can be edited, and the mirror keeps every line after it', async () => {
    const box = boxes[1]!
    const lineId = platformLines(box.id)[120]!
    const res = await env.app.inject({
      method: 'PUT',
      url: `/app-admin/subscriptions/${box.id}/${lineId}/quantity?${auth}`,
      payload: { quantity: 3 },
    })
    expect(res.statusCode, res.body).toBe(200)
    const line = env.emulator.store
      .shop(DOMAIN)!
      .contracts.find((c) => c.id === box.id)!
      .lines.find((l) => String(l.id) === lineId)!
    expect(line.quantity).toBe(3)
    expect(await mirrorLines(box.id)).toEqual(platformLines(box.id))
  })

  it('a billing run charges the 130-line box, prices every line and keeps every line', async () => {
    const box = boxes[1]!
    const platformShop = env.emulator.store.shop(DOMAIN)!
    const contract = platformShop.contracts.find((c) => c.id === box.id)!
    const pm = platformShop.paymentMethods.find((p) => p.id === contract.paymentMethodId)!
    pm.revokedAt = null
    const card = pm.instrument as { expiryYear?: number }
    if (card.expiryYear !== undefined) card.expiryYear = new Date().getUTCFullYear() + 3
    contract.status = 'ACTIVE'
    const dueAt = new Date('2026-11-24T01:00:00Z')
    const far = new Date('2027-06-01T01:00:00Z').getTime()
    for (const c of platformShop.contracts) if (c.status === 'ACTIVE') c.nextBillingDate = far
    contract.nextBillingDate = dueAt.getTime()
    // Its policies are not the mirror's (changed on the platform): the charge reads them, in pages.
    contract.lines = contract.lines.map((l) => ({
      ...l,
      pricingPolicy: { basePrice: 1000, cycleDiscounts: [] },
    }))
    contract.updatedAt += 1000
    contract.revisionId += 1
    env.emulator.store.changed()
    const shop = (await findInstalledShop(env.pool, DOMAIN))!
    await fullSync(env.pool, env.app.shopClients.clientFor(shop), shop)
    const from = env.emulator.callLog.length

    const summary = await runBilling({
      db: env.pool,
      clients: env.app.shopClients,
      shop,
      now: new Date('2026-11-25T01:00:00Z'),
      engine: env.app.billingEngine,
      wait: { intervalMs: 20, timeoutMs: 30_000 },
    })
    expect(summary).toMatchObject({ attempted: 1, succeeded: 1 })
    const pages = env.emulator.callLog
      .slice(from)
      .filter((c) => c.operationName === 'SubscriptionLinePricing')
    expect(pages.length).toBe(2)
    expect(contract.lines.every((l) => l.currentPrice === 1000)).toBe(true)
    expect(await mirrorLines(box.id)).toEqual(platformLines(box.id))
    const { rows } = await env.pool.query<{ n: number }>(
      `select count(*)::int as n from subscription_lines where shop_id = $1 and contract_id = $2
         and current_price = 1000`,
      [shopId, box.id],
    )
    expect(rows[0]!.n).toBe(130)
  })

  it('the CSV export lists every line of the box in its row', async () => {
    const box = boxes[1]!
    const dataDir = await mkdtemp(join(tmpdir(), 'teiki-many-lines-'))
    try {
      const shop = (await findInstalledShop(env.pool, DOMAIN))!
      const job = await createExportJob(env.pool, shop, { encoding: 'utf-8' })
      const ended = await runExport({ db: env.pool, dataDir }, shop, job.id)
      expect(ended.status).toBe('done')
      const csv = await readFile(ended.file_path!, 'utf8')
      const row = csv.split('\r\n').find((line) => line.startsWith(`${box.id},`))!
      expect(row.split(' | ')).toHaveLength(130)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
