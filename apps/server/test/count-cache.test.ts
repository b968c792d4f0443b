import { describe, expect, it } from 'vitest'
import { createCountCache } from '../src/features/subscriptions/count-cache.ts'

function clock() {
  let t = 1_000
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('createCountCache', () => {
  it('counts a key once within the TTL, again after it', async () => {
    const time = clock()
    const cache = createCountCache({ ttlMs: 15_000, now: time.now })
    let queries = 0
    const count = () => Promise.resolve(++queries * 100)
    expect(await cache.get('shop1|all', count)).toBe(100)
    time.advance(14_999)
    expect(await cache.get('shop1|all', count)).toBe(100)
    expect(queries).toBe(1)
    time.advance(1)
    expect(await cache.get('shop1|all', count)).toBe(200)
    expect(queries).toBe(2)
  })

  it('keeps keys apart (another shop, another filter)', async () => {
    const cache = createCountCache({ now: clock().now })
    expect(await cache.get('1|{"statuses":[]}', () => Promise.resolve(5))).toBe(5)
    expect(await cache.get('2|{"statuses":[]}', () => Promise.resolve(7))).toBe(7)
    expect(await cache.get('1|{"statuses":["ACTIVE"]}', () => Promise.resolve(3))).toBe(3)
    expect(await cache.get('1|{"statuses":[]}', () => Promise.resolve(99))).toBe(5)
  })

  it('shares one count among callers while it runs', async () => {
    const cache = createCountCache({ now: clock().now })
    let queries = 0
    let finish: (n: number) => void = () => {}
    const slow = () => {
      queries++
      return new Promise<number>((resolve) => {
        finish = resolve
      })
    }
    const first = cache.get('k', slow)
    const second = cache.get('k', slow)
    finish(42)
    expect(await Promise.all([first, second])).toEqual([42, 42])
    expect(queries).toBe(1)
  })

  it('does not remember a failed count', async () => {
    const cache = createCountCache({ now: clock().now })
    await expect(cache.get('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down')
    expect(await cache.get('k', () => Promise.resolve(8))).toBe(8)
  })

  it('stays bounded, dropping the oldest keys', async () => {
    const cache = createCountCache({ maxEntries: 2, now: clock().now })
    await cache.get('a', () => Promise.resolve(1))
    await cache.get('b', () => Promise.resolve(2))
    await cache.get('c', () => Promise.resolve(3))
    expect(await cache.get('b', () => Promise.resolve(20))).toBe(2) // still there
    expect(await cache.get('a', () => Promise.resolve(10))).toBe(10) // dropped, counted again
  })
})
