import { randomUUID } from 'node:crypto'
import { signWebhook } from '@teiki/shopify-emulator'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/platform/gid.ts'
import { findInstalledShop } from '../src/platform/shops-repo.ts'
import { fullSync } from '../src/sync/full-sync.ts'
import { upsertOrder } from '../src/sync/mirror-repo.ts'
import { type StrippedText, setMirrorTextLog } from '../src/sync/mirror-text.ts'
import { orderRecord } from '../src/sync/records.ts'
import { useEmulatedApp } from './support/emulated-app.ts'
import { TEST_API_SECRET, testDomain } from './support/fixtures.ts'

// Issue 11 item 2: the platform accepts a NUL in a note, an attribute or an address, and
// PostgreSQL refuses it. The mirror must store the text without it, log it, and go on, so the
// shop's sync and that contract's later webhooks keep working.

const DOMAIN = testDomain('hostile')
const SECRET = 's3cret-hostile'
const NUL = '\u0000'

const warnings: StrippedText[] = []
let restoreLog: ReturnType<typeof setMirrorTextLog>

const env = useEmulatedApp({ shops: [{ domain: DOMAIN, contracts: 6 }], secret: SECRET })
beforeAll(async () => {
  restoreLog = setMirrorTextLog({ warn: ((report: StrippedText) => warnings.push(report)) as never })
}, 60_000)
afterAll(async () => {
  setMirrorTextLog(restoreLog)
})
afterEach(() => {
  warnings.length = 0
})

const platformShop = () => env.emulator.store.shop(DOMAIN)!
const shopRow = async () => (await findInstalledShop(env.pool, DOMAIN))!

/** Edits a contract on the platform as another app or the store admin would. */
function poison(index: number, text: string) {
  const c = platformShop().contracts[index]!
  c.note = `備考${text}です`
  c.customAttributes = [...c.customAttributes, { key: `key${text}`, value: `値${text}` }]
  if (c.deliveryMethod?.__typename === 'SubscriptionDeliveryMethodShipping') {
    c.deliveryMethod.address.address1 = `神宮前${text}1-2-3`
  }
  // Later than the last sync, so the incremental sync's updated_at filter picks it up.
  c.updatedAt = Math.max(c.updatedAt, Date.now()) + 60_000
  c.revisionId += 1
  return String(c.id)
}

async function mirrored(contractId: string) {
  const { rows } = await env.pool.query<{
    note: string | null
    custom_attributes: Array<{ key: string; value: string | null }>
    delivery_method: { address?: { address1?: string } } | null
  }>(
    'select note, custom_attributes, delivery_method from subscription_contracts where shop_id = $1 and id = $2',
    [env.shopIds[DOMAIN], contractId],
  )
  return rows[0]
}

function webhook(contractId: string) {
  return deliver('subscription_contracts/update', {
    admin_graphql_api_id: toGid('SubscriptionContract', contractId),
    id: contractId,
  })
}

function deliver(topic: string, payload: unknown) {
  const body = JSON.stringify(payload)
  return env.app.inject({
    method: 'POST',
    url: '/webhooks',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-shop-domain': DOMAIN,
      'x-shopify-webhook-id': randomUUID(),
      'x-shopify-hmac-sha256': signWebhook(body, TEST_API_SECRET),
    },
  })
}

describe('the mirror survives text PostgreSQL refuses', () => {
  it('the first (bulk) sync stores a NUL-bearing note, attribute, address and customer name cleaned, and logs where', async () => {
    const contractId = poison(0, NUL)
    const customer = platformShop().customers.find((c) => c.id === platformShop().contracts[0]!.customerId)!
    customer.firstName = `太${NUL}郎`
    await fullSync(env.pool, env.clients[DOMAIN]!, await shopRow())

    const row = await mirrored(contractId)
    expect(row?.note).toBe('備考です')
    expect(row?.custom_attributes).toContainEqual({ key: 'key', value: '値' })
    expect(row?.delivery_method?.address?.address1).toBe('神宮前1-2-3')
    const { rows } = await env.pool.query<{ first_name: string }>(
      'select first_name from customers where shop_id = $1 and id = $2',
      [env.shopIds[DOMAIN], String(customer.id)],
    )
    expect(rows[0]?.first_name).toBe('太郎')

    const contractWarning = warnings.find((w) => w.table === 'subscription_contracts' && w.id === contractId)
    expect(contractWarning).toMatchObject({ contractId })
    expect(contractWarning?.fields).toEqual(
      expect.arrayContaining([
        'note',
        'delivery_method.address.address1',
        expect.stringMatching(/^custom_attributes\[/),
      ]),
    )
    // The log names fields, never the text.
    expect(JSON.stringify(warnings)).not.toContain('備考')
    expect(warnings.find((w) => w.table === 'customers')?.fields).toContain('first_name')
  })

  it('a contract webhook carrying a NUL applies (200), and a later change of that contract still arrives', async () => {
    const contractId = poison(1, NUL)
    const first = await webhook(contractId)
    expect(first.statusCode, first.body).toBe(200)
    expect((await mirrored(contractId))?.note).toBe('備考です')
    expect(warnings.some((w) => w.contractId === contractId && w.fields.includes('note'))).toBe(true)

    // The merchant edits the same contract in Teiki afterwards: the mirror follows.
    const revision = String(platformShop().contracts[1]!.revisionId)
    const edit = await env.app.inject({
      method: 'PUT',
      url: `/app-admin/subscription-contracts/${contractId}/note?shop=${DOMAIN}&secret=${SECRET}`,
      payload: { note: '次回は朝に配達', revision },
    })
    expect(edit.statusCode, edit.body).toBe(200)
    expect((await mirrored(contractId))?.note).toBe('次回は朝に配達')

    // And so does the next platform-side change through its webhook.
    const c = platformShop().contracts[1]!
    c.note = '更新後'
    c.updatedAt += 60_000
    c.revisionId += 1
    expect((await webhook(contractId)).statusCode).toBe(200)
    expect((await mirrored(contractId))?.note).toBe('更新後')
  })

  // orders/create is read from the platform (webhooks bind the body to the shop), and the
  // emulator's order names are numbers: the order mapper itself gets the hostile name.
  it('an order whose name carries a NUL is mapped to a storable row, and written', async () => {
    const row = orderRecord(
      {
        id: toGid('Order', 88_000_002),
        name: `#90${NUL}02`,
        createdAt: '2026-11-20T01:02:03Z',
        cancelledAt: null,
        test: false,
        totalPriceSet: { shopMoney: { amount: '3980.0', currencyCode: 'JPY' } },
        customer: null,
      },
      null,
    )
    expect(row.name).toBe('#9002')
    await upsertOrder(env.pool, env.shopIds[DOMAIN]!, row)
    const { rows } = await env.pool.query<{ name: string }>(
      'select name from orders where shop_id = $1 and id = $2',
      [env.shopIds[DOMAIN], '88000002'],
    )
    expect(rows[0]?.name).toBe('#9002')
    expect(warnings.find((w) => w.table === 'orders')).toMatchObject({ id: '88000002', fields: ['name'] })
  })

  it('an incremental (paged) sync with lone surrogates completes', async () => {
    const contractId = poison(2, '\ud800')
    const shop = await shopRow()
    expect(shop.synced_at).not.toBeNull()
    const summary = await fullSync(env.pool, env.clients[DOMAIN]!, shop)
    expect(summary.contracts).toBeGreaterThan(0)
    const row = await mirrored(contractId)
    expect(row?.note).toBe('備考です')
    expect(row?.custom_attributes).toContainEqual({ key: 'key', value: '値' })
    expect(warnings.find((w) => w.contractId === contractId)?.fields).toEqual(
      expect.arrayContaining(['note', expect.stringMatching(/^custom_attributes\[\d+\]\.key$/)]),
    )
  })
})
