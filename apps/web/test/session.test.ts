import { describe, expect, it } from 'vitest'
import { readSession } from '../src/app/session.ts'

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial))
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  }
}

describe('readSession', () => {
  it('reads shop, secret and host from the query and stores shop and secret', () => {
    const storage = memoryStorage()
    expect(readSession('?shop=a.myshopify.com&secret=s&host=aG9zdA', storage)).toEqual({
      shop: 'a.myshopify.com',
      secret: 's',
      host: 'aG9zdA',
    })
    expect(Object.fromEntries(storage.data)).toEqual({ 'teiki.shop': 'a.myshopify.com', 'teiki.secret': 's' })
  })

  it('falls back to the stored values when the query has none', () => {
    const storage = memoryStorage({ 'teiki.shop': 'b.myshopify.com', 'teiki.secret': 'x' })
    expect(readSession('', storage)).toEqual({ shop: 'b.myshopify.com', secret: 'x', host: null })
  })

  it('keeps working when the storage throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
    }
    const originalError = console.error
    const logged: unknown[] = []
    console.error = (...args: unknown[]) => void logged.push(args)
    try {
      expect(readSession('?shop=c.myshopify.com', throwing)).toEqual({
        shop: 'c.myshopify.com',
        secret: null,
        host: null,
      })
      expect(readSession('', throwing)).toEqual({ shop: null, secret: null, host: null })
    } finally {
      console.error = originalError
    }
    expect(logged.length).toBeGreaterThan(0) // the failed write is reported
  })

  it('works without storage', () => {
    expect(readSession('?shop=d', null)).toEqual({ shop: 'd', secret: null, host: null })
  })
})
