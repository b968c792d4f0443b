import { describe, expect, it } from 'vitest'
import { classifySearchInput, type SearchInput } from '../src/index.ts'

const all: SearchInput = { kind: 'all' }
const variant = (variantId: string): SearchInput => ({ kind: 'variant', variantId })
const contract = (contractId: string): SearchInput => ({ kind: 'contract', contractId })
const phone = (p: string): SearchInput => ({ kind: 'customer', mode: 'phone', phone: p })
const any = (term: string): SearchInput => ({ kind: 'customer', mode: 'any', term })

describe('classifySearchInput', () => {
  it.each<[string, SearchInput]>([
    // empty
    ['', all],
    ['   ', all], // whitespace only
    ['\u3000\t\n', all], // ideographic space (NFKC -> space), tab, newline
    // variant: exactly 14 digits not starting with 0
    ['12345678901234', variant('12345678901234')],
    ['  41234567890123  ', variant('41234567890123')], // trimmed
    ['４１２３４５６７８９０１２３', variant('41234567890123')], // full-width digits
    // contract: other numeric values
    ['1', contract('1')],
    ['123', contract('123')],
    ['1234567890123', contract('1234567890123')], // 13 digits
    ['123456789012345', contract('123456789012345')], // 15 digits: too long for a variant
    ['１２３', contract('123')], // full-width
    ['gid://shopify/SubscriptionContract/123', contract('123')],
    ['GID://Shopify/SubscriptionContract/98765', contract('98765')], // case-insensitive prefix
    ['gid://shopify/ProductVariant/4123', variant('4123')], // the gid names the kind
    // phone: digits starting with 0, one leading 0 removed
    ['09012345678', phone('9012345678')],
    ['０９０１２３４５６７８', phone('9012345678')], // full-width
    ['090-1234-5678', phone('9012345678')], // hyphen-separated groups
    ['090 1234 5678', phone('9012345678')], // space-separated groups
    ['０９０－１２３４－５６７８', phone('9012345678')], // full-width hyphens
    ['090ー1234ー5678', phone('9012345678')], // IME long-vowel mark used as a dash
    ['03(1234)5678', phone('312345678')], // Japanese landline with parentheses
    ['01234567890123', phone('1234567890123')], // 14 digits but leading 0: variant ids never start with 0
    ['00', phone('0')], // only one leading 0 is removed
    ['0', any('0')], // phone search for '' would match everyone
    // any: non-numeric
    ['+81 90-1234-5678', any('+81 90-1234-5678')], // '+' makes it text
    ['Taro@Example.com', any('Taro@Example.com')], // original case kept
    ['  山田 太郎  ', any('山田 太郎')], // trimmed, inner space kept
    ['ＴＡＲＯ', any('TARO')], // full-width letters -> ASCII, case kept
    ['123-456', any('123-456')], // separated digits not starting with 0 are text, not ids
    ['12a', any('12a')],
    ['#1001', any('#1001')],
    ['1.5', any('1.5')],
    ['-', any('-')],
    ['090-', any('090-')], // trailing separator: not a digit group
    ['gid://shopify/Customer/123', any('gid://shopify/Customer/123')],
  ])('%j -> %j', (raw, expected) => {
    expect(classifySearchInput(raw)).toEqual(expected)
  })
})
