import { describe, expect, it } from 'vitest'
import {
  gidNumber,
  hasControlCharacter,
  isPlatformId,
  ZLineId,
  ZPlatformId,
  ZPlatformIdOrGid,
  ZText,
  ZUnsignedInt64,
} from '../src/index.ts'

const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? '')

describe('ZPlatformId', () => {
  const id = ZPlatformId('契約ID')
  it.each([
    '1',
    '42',
    '44000000000001',
    '9223372036854775807', // 2^63 - 1: the platform's largest id
  ])('accepts %s', (value) => {
    expect(id.parse(value)).toBe(value)
  })

  it.each([
    ['0', '契約IDは1〜9223372036854775807の範囲で指定してください'],
    ['9223372036854775808', '契約IDは1〜9223372036854775807の範囲で指定してください'], // 2^63
    ['18446744073709551616', '契約IDは1〜9223372036854775807の範囲で指定してください'], // 2^64
    ['99999999999999999999', '契約IDは1〜9223372036854775807の範囲で指定してください'], // 20 digits
    ['007', '契約IDは1〜9223372036854775807の範囲で指定してください'], // not canonical
    ['-1', '契約IDは数字で指定してください'],
    ['1e400', '契約IDは数字で指定してください'],
    ['12a', '契約IDは数字で指定してください'],
    ['', '契約IDは数字で指定してください'],
    [' 1', '契約IDは数字で指定してください'],
    ['1\u0000', '契約IDは数字で指定してください'],
    ['１２', '契約IDは数字で指定してください'], // full-width digits are text, not an id
    ['9'.repeat(10_000), '契約IDは数字で指定してください'],
  ])('refuses %j in Japanese', (value, message) => {
    expect(messageOf(id.safeParse(value))).toBe(message)
  })

  it.each([[1], [null], [['1']], [{ id: '1' }], [undefined]])('refuses the non-string %j', (value) => {
    expect(messageOf(id.safeParse(value))).toBe('契約IDを指定してください')
  })

  it('compares as BigInt: 2^53 + 1 is not rounded', () => {
    expect(isPlatformId('9007199254740993')).toBe(true)
    expect(isPlatformId('9223372036854775807')).toBe(true)
    expect(isPlatformId('9223372036854775808')).toBe(false)
  })
})

describe('ZPlatformIdOrGid', () => {
  const variant = ZPlatformIdOrGid('バリエーションID', 'ProductVariant')
  it.each([
    ['44000000000001', '44000000000001'],
    ['gid://shopify/ProductVariant/44000000000001', '44000000000001'],
    ['gid://shopify/ProductVariant/7', '7'], // any length: the gid says what it is
    ['GID://shopify/productvariant/7', '7'],
  ])('reads %s as %s', (value, expected) => {
    expect(variant.parse(value)).toBe(expected)
  })

  it.each([
    [
      'gid://shopify/ProductVariant/9223372036854775808',
      'バリエーションIDは1〜9223372036854775807の範囲で指定してください',
    ],
    ['gid://shopify/ProductVariant/0', 'バリエーションIDは1〜9223372036854775807の範囲で指定してください'],
    ['gid://shopify/Product/7', 'バリエーションIDは数字で指定してください'],
    ['gid://shopify/ProductVariant/7?x=1', 'バリエーションIDは数字で指定してください'],
    ['gid://shopify/ProductVariant/', 'バリエーションIDは数字で指定してください'],
  ])('refuses %j', (value, message) => {
    expect(messageOf(variant.safeParse(value))).toBe(message)
  })

  it('gidNumber reads only its own type', () => {
    expect(gidNumber('ProductVariant', 'gid://shopify/ProductVariant/12')).toBe('12')
    expect(gidNumber('ProductVariant', 'gid://shopify/SubscriptionContract/12')).toBeNull()
    expect(gidNumber('ProductVariant', `gid://shopify/ProductVariant/${'1'.repeat(40)}`)).toBeNull()
  })
})

describe('ZUnsignedInt64 (revision)', () => {
  const revision = ZUnsignedInt64('revision')
  it.each(['0', '1', '18446744073709551615'])('accepts %s', (value) => {
    expect(revision.parse(value)).toBe(value)
  })
  it.each(['18446744073709551616', '-1', 'abc', '1.5', ''])('refuses %j', (value) => {
    expect(messageOf(revision.safeParse(value))).toBe(
      'revisionは0〜18446744073709551615の数字で指定してください',
    )
  })
})

describe('ZLineId', () => {
  it.each(['a1b2c3d4-0000-4000-8000-000000000001', '123'])('accepts %s', (value) => {
    expect(ZLineId.parse(value)).toBe(value)
  })
  it.each(['', 'a/b', 'a\u0000', 'x'.repeat(65), 'gid://shopify/SubscriptionLine/1'])(
    'refuses %j',
    (value) => {
      expect(messageOf(ZLineId.safeParse(value))).toBe('明細IDの形式が正しくありません')
    },
  )
})

describe('ZText', () => {
  const single = ZText('割引コード', { max: 10 })
  const note = ZText('メモ', { max: 10, multiline: true })

  it.each([
    ['WELCOME', 'WELCOME'],
    ['  渋谷区  ', '渋谷区'], // single-line text is trimmed
    ['🍵x', '🍵x'], // a surrogate pair is one character of text
    ['', ''],
  ])('accepts single-line %j', (value, expected) => {
    expect(single.parse(value)).toBe(expected)
  })

  it.each([
    ['a\u0000b', '割引コードに使用できない制御文字が含まれています'], // NUL
    ['a\u0001', '割引コードに使用できない制御文字が含まれています'],
    ['a\nb', '割引コードに使用できない制御文字が含まれています'], // no line break in one line
    ['a\tb', '割引コードに使用できない制御文字が含まれています'],
    ['a\u007fb', '割引コードに使用できない制御文字が含まれています'], // DEL
    ['a\u0085b', '割引コードに使用できない制御文字が含まれています'], // C1 (NEL)
    ['a\u009fb', '割引コードに使用できない制御文字が含まれています'],
    ['a\ud800b', '割引コードに不正な文字が含まれています'], // lone high surrogate
    ['\udc00', '割引コードに不正な文字が含まれています'], // lone low surrogate
    ['x'.repeat(11), '割引コードは10文字以内で入力してください'],
  ])('refuses single-line %j in Japanese', (value, message) => {
    expect(messageOf(single.safeParse(value))).toBe(message)
  })

  it.each([
    ['一行目\n二行目', '一行目\n二行目'],
    ['a\r\nb\tc', 'a\r\nb\tc'],
    [' 先頭の空白 ', ' 先頭の空白 '], // a note keeps its spacing
  ])('a multi-line field keeps %j', (value, expected) => {
    expect(note.parse(value)).toBe(expected)
  })

  it.each([
    ['a\u0000', 'メモに使用できない制御文字が含まれています'],
    ['a\rb', 'メモに使用できない制御文字が含まれています'], // a lone CR
    ['a\u000bb', 'メモに使用できない制御文字が含まれています'], // vertical tab
    ['a\u001b[31m', 'メモに使用できない制御文字が含まれています'], // terminal escape
    ['あ'.repeat(11), 'メモは10文字以内で入力してください'],
  ])('a multi-line field refuses %j', (value, message) => {
    expect(messageOf(note.safeParse(value))).toBe(message)
  })

  it.each([[12], [null], [['a']], [{ a: 1 }], [undefined]])('refuses the non-string %j', (value) => {
    expect(messageOf(single.safeParse(value))).toBe('割引コードを入力してください')
  })

  it('hasControlCharacter spares printable text of every script', () => {
    expect(hasControlCharacter('山田 太郎 ｱｲｳ ¥1,980 café 🍵')).toBe(false)
    expect(hasControlCharacter('\u00a0')).toBe(false) // NBSP is not a control character
  })
})
