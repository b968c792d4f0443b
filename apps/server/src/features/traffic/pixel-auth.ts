import { hash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import type { Db } from '../../db/pool.ts'
import { unauthenticated } from '../../http/app-error.ts'
import { shopPixelKey } from './repo.ts'

// One-shot hashing: a third of createHash().update().digest()'s cost, on every hit.
const digest = (text: string) => hash('sha256', text, 'buffer')
const DUMMY = digest('no-pixel-key')

/**
 * The `pixel` route auth: `shop` + `key` query parameters against the shop's pixel key, compared
 * as SHA-256 digests in constant time (an unknown shop is compared against a dummy, so the
 * answer takes the same time). Keys are cached per process for 5 s: the endpoint takes
 * thousands of hits a second.
 */
export function pixelAuthenticator(db: Db, cacheMs = 5_000) {
  const cache = new Map<string, { value: { shopId: string; key: Buffer } | null; until: number }>()
  async function lookup(domain: string) {
    const hit = cache.get(domain)
    if (hit && hit.until > Date.now()) return hit.value
    const row = await shopPixelKey(db, domain)
    const value = row ? { shopId: row.shopId, key: digest(row.key) } : null
    if (cache.size > 10_000) cache.clear()
    cache.set(domain, { value, until: Date.now() + cacheMs })
    return value
  }
  return async (request: FastifyRequest): Promise<string> => {
    const { shop, key } = request.query as { shop: string; key: string }
    const found = await lookup(shop)
    const ok = timingSafeEqual(digest(key), found?.key ?? DUMMY)
    if (!found || !ok) throw unauthenticated('ピクセルのキーが正しくありません。')
    return found.shopId
  }
}
