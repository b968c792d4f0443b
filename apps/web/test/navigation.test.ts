import { describe, expect, it } from 'vitest'
import { buildAppHref, isExternalUrl } from '../src/app/navigation.ts'

describe('buildAppHref', () => {
  it.each([
    // [target, current search, fallback, expected]
    [
      '/plans',
      '?shop=a.myshopify.com&secret=s3&host=aG9zdA&statuses=ACTIVE',
      {},
      '/plans?shop=a.myshopify.com&secret=s3',
    ],
    ['/', '?host=aG9zdA&embedded=1', {}, '/'], // nothing to carry
    ['/plans', '', { shop: 'b.myshopify.com', secret: 'x' }, '/plans?shop=b.myshopify.com&secret=x'], // from session
    [
      '/plans',
      '?shop=url.myshopify.com',
      { shop: 'stored.myshopify.com', secret: 'x' },
      '/plans?shop=url.myshopify.com&secret=x',
    ],
    ['/plans?tab=billing#top', '?shop=a&secret=s&page=3', {}, '/plans?shop=a&secret=s&tab=billing#top'], // target keeps its own query and hash
    ['', '?shop=a', {}, '/?shop=a'], // empty path means the app root
    ['/', '?shop=&secret=', { shop: null, secret: null }, '/'], // empty values are not carried
  ])('%s from %s', (target, search, fallback, expected) => {
    expect(buildAppHref(target, search, fallback)).toBe(expected)
  })

  it('encodes carried values', () => {
    expect(buildAppHref('/', '?shop=a&secret=a%2Bb%26c')).toBe('/?shop=a&secret=a%2Bb%26c')
  })
})

describe('isExternalUrl', () => {
  it.each([
    ['https://admin.shopify.com/store/x/apps', true],
    ['//cdn.example.com/x', true],
    ['mailto:someone@example.com', true],
    ['/plans', false],
    ['plans', false],
  ])('%s → %s', (url, expected) => {
    expect(isExternalUrl(url)).toBe(expected)
  })
})
