import { describe, expect, it } from 'vitest'
import { createShopClients, IDLE_CLIENT_MS } from '../src/platform/shop-clients.ts'
import type { ShopRow } from '../src/platform/shops-repo.ts'
import { json } from './support/fake-platform.ts'

const shop = (n: number) =>
  ({ id: String(n), domain: `shop-${n}.myshopify.com`, access_token: `shpat_${n}` }) as ShopRow

describe('per-shop clients', () => {
  it('keeps one client per shop and drops idle ones, so many shops do not pile up', async () => {
    const clock = { t: 1_000_000 }
    const stuck = new Promise<Response>(() => {})
    const clients = createShopClients({
      adminOrigin: (domain) => `http://${domain}`,
      // Shop 0's call never answers: its client stays busy.
      fetch: (async (url: string) =>
        url.includes('shop-0.') ? stuck : json({ data: { ok: true } })) as unknown as typeof fetch,
      lanes: { now: () => clock.t },
    })
    void clients.clientFor(shop(0)).request('Q', 'query Q { a }')
    for (let n = 1; n <= 1000; n++) {
      const client = clients.clientFor(shop(n))
      expect(clients.clientFor(shop(n))).toBe(client)
      await client.request('Q', 'query Q { a }')
    }
    expect(clients.size).toBe(1001)
    clock.t += IDLE_CLIENT_MS
    const fresh = clients.clientFor(shop(1))
    // The busy client and the one just asked for are left.
    expect(clients.size).toBe(2)
    expect(clients.clientFor(shop(1))).toBe(fresh)
  })
})
