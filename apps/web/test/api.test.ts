import { describe, expect, it } from 'vitest'
import { buildApiUrl } from '../src/app/api.ts'

describe('buildApiUrl', () => {
  it('adds shop and secret in standalone mode and skips empty params', () => {
    const url = buildApiUrl(
      '/subscriptions/search',
      { offset: 0, limit: 10, statuses: undefined, contractId: '', customerQuery: null },
      { kind: 'query', shop: 'a.myshopify.com', secret: 's' },
    )
    expect(url).toBe('/app-admin/subscriptions/search?offset=0&limit=10&shop=a.myshopify.com&secret=s')
  })

  it('sends no query credentials with a bearer token', () => {
    expect(buildApiUrl('plan', {}, { kind: 'bearer', token: 't' })).toBe('/app-admin/plan')
  })

  it('encodes values', () => {
    const url = buildApiUrl(
      '/subscriptions/search',
      { customerQuery: '山田 太郎+' },
      { kind: 'query', shop: null, secret: null },
    )
    expect(url).toBe('/app-admin/subscriptions/search?customerQuery=%E5%B1%B1%E7%94%B0+%E5%A4%AA%E9%83%8E%2B')
  })
})
