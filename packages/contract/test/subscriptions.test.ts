import { describe, expect, it } from 'vitest'
import { errorStatus, ZSearchSubscriptionsQuery, ZSearchVariantQuery } from '../src/index.ts'

describe('ZSearchSubscriptionsQuery', () => {
  it('defaults to the first 10 rows of every status', () => {
    expect(ZSearchSubscriptionsQuery.parse({})).toEqual({ statuses: [], offset: 0, limit: 10 })
  })

  it.each([
    ['ACTIVE', ['ACTIVE']],
    ['active,paused', ['ACTIVE', 'PAUSED']], // case-insensitive
    [' FAILED , FAILED ', ['FAILED']], // trimmed, de-duplicated
    ['', []], // empty: all statuses
    ['CANCELLED,,EXPIRED', ['CANCELLED', 'EXPIRED']],
  ])('reads statuses %j', (statuses, expected) => {
    expect(ZSearchSubscriptionsQuery.parse({ statuses }).statuses).toEqual(expected)
  })

  it.each([
    [{ statuses: 'ACTIVE,DELETED' }, '不明なステータスです: DELETED'],
    [{ nextBillingDateFrom: '2026-1-5' }, '日付は YYYY-MM-DD の形式で指定してください'],
    // A day that does not exist is refused with the day named, never dropped (issue 22).
    [{ nextBillingDateFrom: '2026-13-45' }, '2026年13月45日は存在しない日付です'],
    [{ nextBillingDateTo: '2027-02-29' }, '2027年2月29日は存在しない日付です'],
    [{ contractId: '12a' }, '契約IDは数字で指定してください'],
  ])('rejects %j with a Japanese message', (input, message) => {
    const result = ZSearchSubscriptionsQuery.safeParse(input)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe(message)
  })

  it.each([[{ limit: '0' }], [{ limit: '101' }], [{ offset: '-1' }], [{ limit: '2.5' }]])(
    'bounds paging %j',
    (input) => {
      expect(ZSearchSubscriptionsQuery.safeParse(input).success).toBe(false)
    },
  )

  it('coerces paging from query-string text', () => {
    expect(ZSearchSubscriptionsQuery.parse({ offset: '20', limit: '100' })).toMatchObject({
      offset: 20,
      limit: 100,
    })
  })
})

describe('ZSearchVariantQuery', () => {
  it.each(['44000000000001', '12345678901234'])('accepts the 14-digit id %s', (variantId) => {
    expect(ZSearchVariantQuery.parse({ variantId }).variantId).toBe(variantId)
  })
  // A gid says what it is: its number may have any length, as in the search box (spec §5).
  it.each([
    ['gid://shopify/ProductVariant/1', '1'],
    ['gid://shopify/ProductVariant/9223372036854775807', '9223372036854775807'],
  ])('reads the variant gid %s as its number', (variantId, expected) => {
    expect(ZSearchVariantQuery.parse({ variantId }).variantId).toBe(expected)
  })
  it.each([
    '4400000000000',
    '440000000000011',
    '04400000000001', // a leading 0 is a phone number in the search box, never an id
    'gid://shopify/ProductVariant/9223372036854775808',
    'gid://shopify/ProductVariant/0',
    'gid://shopify/Product/44000000000001',
    '',
  ])('rejects %j', (variantId) => {
    expect(ZSearchVariantQuery.safeParse({ variantId }).success).toBe(false)
  })
})

describe('errorStatus', () => {
  it('maps every error code to one HTTP status', () => {
    expect(errorStatus).toEqual({
      UNAUTHENTICATED: 401,
      INVALID_INPUT: 400,
      FORBIDDEN: 403,
      PLAN_REQUIRED: 403,
      NOT_FOUND: 404,
      SHOP_NOT_FOUND: 404,
      CONFLICT: 409,
      PLATFORM_USER_ERROR: 422,
      PLATFORM_UNAVAILABLE: 502,
      PLATFORM_BUSY: 503,
      INTERNAL: 500,
    })
  })
})
