import { readFileSync } from 'node:fs'
import { type EnumTypeDefinitionNode, Kind, parse } from 'graphql'
import { describe, expect, it } from 'vitest'
import {
  billingAttemptErrorJa,
  fieldLabelJa,
  splitPlatformDetail,
  UNKNOWN_BILLING_ERROR_JA,
  UNKNOWN_USER_ERROR_JA,
  userErrorJa,
  userErrorsJa,
  withPlatformDetail,
} from '../src/index.ts'
import { BILLING_ATTEMPT_ERRORS_JA, USER_ERRORS_JA } from '../src/platform/platform-message-table.ts'

// The real Admin API schema, read from the shared folder (never copied into the repo): the
// tables must cover every value of these enums, so a code the platform adds fails here.
// SHOPIFY_ADMIN_SCHEMA: the file's path when the checkout's parent has no shared/ (a worktree).
const SDL = readFileSync(
  process.env.SHOPIFY_ADMIN_SCHEMA ??
    new URL('../../../../shared/shopify-admin-schema/shopify-2025-04.graphql', import.meta.url),
  'utf8',
)
const enums = new Map(
  parse(SDL, { noLocation: true })
    .definitions.filter((d): d is EnumTypeDefinitionNode => d.kind === Kind.ENUM_TYPE_DEFINITION)
    .map((d) => [d.name.value, (d.values ?? []).map((v) => v.name.value)]),
)
const enumValues = (name: string): string[] => {
  const values = enums.get(name)
  if (!values) throw new Error(`enum ${name} is not in the schema`)
  return values
}

const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/
// The message a merchant reads: Japanese, and no English words (brand names aside).
const readsJapanese = (text: string) => {
  expect(text).toMatch(JAPANESE)
  expect(text.replace(/PayPal|ID/g, '')).not.toMatch(/[A-Za-z]{2,}/)
}

// The mutations the app calls answer with these userErrors types (platform/operations/*):
// SubscriptionBillingAttemptCreate → BillingAttemptUserError, pause/activate/cancel/expire →
// SubscriptionContractStatusUpdateUserError, set next billing date → SubscriptionContractUserError,
// contract update and every draft mutation → SubscriptionDraftUserError.
const USER_ERROR_ENUMS = [
  'BillingAttemptUserErrorCode',
  'SubscriptionContractStatusUpdateErrorCode',
  'SubscriptionContractErrorCode',
  'SubscriptionDraftErrorCode',
]

describe('every platform code has Japanese', () => {
  it('the schema has the enums this module covers', () => {
    expect(enumValues('SubscriptionBillingAttemptErrorCode').length).toBeGreaterThanOrEqual(26)
    for (const name of USER_ERROR_ENUMS) expect(enumValues(name).length).toBeGreaterThan(0)
  })

  it.each(enumValues('SubscriptionBillingAttemptErrorCode'))('billing attempt %s', (code) => {
    expect(BILLING_ATTEMPT_ERRORS_JA[code]).toBeDefined()
    const translated = billingAttemptErrorJa(code, 'Original platform text.')
    expect(translated.message).toBe(BILLING_ATTEMPT_ERRORS_JA[code])
    expect(translated.message).not.toBe(UNKNOWN_BILLING_ERROR_JA)
    readsJapanese(translated.message)
    expect(translated.detail).toBe('Original platform text.')
  })

  it.each(USER_ERROR_ENUMS.flatMap((name) => enumValues(name).map((code) => [name, code])))(
    '%s.%s',
    (_enum, code) => {
      expect(USER_ERRORS_JA[code]).toBeDefined()
      const translated = userErrorJa({ code, field: null, message: 'Original.' })
      expect(translated.message).toBe(USER_ERRORS_JA[code])
      readsJapanese(translated.message)
      expect(translated.detail).toBe('Original.')
    },
  )
})

describe('billingAttemptErrorJa', () => {
  it.each<[string | null, string | null, string, string | null]>([
    // The example, as the emulator and the platform say it.
    [
      'PAYMENT_METHOD_DECLINED',
      'Your card was declined.',
      'カード会社に決済を承認されませんでした。',
      'Your card was declined.',
    ],
    [
      'INSUFFICIENT_FUNDS',
      'Your card has insufficient funds.',
      'カードの利用可能額が不足しています。',
      'Your card has insufficient funds.',
    ],
    ['expired_payment_method', null, 'カードの有効期限が切れています。', null], // lower case, no message
    // Unknown code: generic sentence, the code and the original kept for lookup.
    ['BRAND_NEW_CODE', 'Something new.', UNKNOWN_BILLING_ERROR_JA, 'BRAND_NEW_CODE Something new.'],
    [null, 'Gateway timeout', UNKNOWN_BILLING_ERROR_JA, 'Gateway timeout'], // message only
    [null, '  ', UNKNOWN_BILLING_ERROR_JA, null], // blank message is no detail
  ])('%s / %s → %s', (code, original, message, detail) => {
    expect(billingAttemptErrorJa(code, original)).toEqual({ message, detail })
  })
})

describe('userErrorJa', () => {
  it.each<[{ code?: string | null; field?: string[] | null; message: string }, string]>([
    // The example: the platform's generic INVALID on the redeem code field.
    [
      { code: 'INVALID', field: ['redeemCode'], message: 'Discount code is invalid' },
      '割引コードが無効です。コードが正しいか、有効期限が切れていないかご確認ください。',
    ],
    // Same code and field, told apart only by the message.
    [
      { code: 'INVALID', field: ['redeemCode'], message: 'Discount code is already applied' },
      'この割引コードはすでに適用されています。',
    ],
    // Generic codes name the field (last name of the path, indices skipped).
    [
      { code: 'GREATER_THAN', field: ['input', 'quantity'], message: 'Quantity must be greater than 0' },
      '数量が小さすぎます。',
    ],
    [
      {
        code: 'BLANK',
        field: ['input', 'deliveryMethod', 'shipping', 'address', 'address1'],
        message: 'Address1 is blank',
      },
      '住所を入力してください。',
    ],
    [{ code: 'INVALID', field: ['input', 'lines', '0'], message: 'x' }, '入力内容が正しくありません。'], // unknown field name
    [{ code: 'TOO_LONG', field: ['input', 'note'], message: 'Note is too long' }, 'メモが長すぎます。'],
    // Specific codes keep their own sentence whatever the field.
    [
      {
        code: 'CONTRACT_TERMINATED',
        field: ['subscriptionContractId'],
        message: 'Cannot change the status of a cancelled contract',
      },
      '終了した契約（解約済み・期限切れ）のため、この操作はできません。',
    ],
    // No code (UserError has none) and an unknown code: the generic sentence.
    [
      { code: null, field: ['customerPaymentMethodId'], message: 'Payment method is revoked' },
      UNKNOWN_USER_ERROR_JA,
    ],
    [{ code: 'SOMETHING_NEW', message: 'New refusal' }, UNKNOWN_USER_ERROR_JA],
  ])('%o → %s', (error, message) => {
    expect(userErrorJa(error)).toEqual({ message, detail: error.message })
  })

  it('names fields from the path, or null', () => {
    expect(fieldLabelJa(['input', 'currentPrice'])).toBe('価格')
    expect(fieldLabelJa(['input', 'lines', '2'])).toBeNull()
    expect(fieldLabelJa(null)).toBeNull()
  })
})

describe('userErrorsJa', () => {
  it('joins the sentences (each once) and the originals', () => {
    expect(
      userErrorsJa([
        { code: 'GREATER_THAN', field: ['input', 'quantity'], message: 'Quantity must be greater than 0' },
        { code: 'GREATER_THAN', field: ['input', 'quantity'], message: 'Quantity must be greater than 0' },
        {
          code: 'GREATER_THAN_OR_EQUAL_TO',
          field: ['input', 'currentPrice'],
          message: 'Price must be 0 or more',
        },
      ]),
    ).toEqual({
      message: '数量が小さすぎます。価格が小さすぎます。',
      detail: 'Quantity must be greater than 0 / Price must be 0 or more',
    })
  })

  it('an empty list is still a sentence', () => {
    expect(userErrorsJa([])).toEqual({ message: UNKNOWN_USER_ERROR_JA, detail: null })
  })
})

describe('withPlatformDetail / splitPlatformDetail', () => {
  it.each([
    [
      { message: 'カードの有効期限が切れています。', detail: 'Your card has expired.' },
      'カードの有効期限が切れています。\n詳細: Your card has expired.',
    ],
    [{ message: 'メモを保存しました', detail: null }, 'メモを保存しました'],
  ])('%o ⇄ %s', (parts, text) => {
    expect(withPlatformDetail(parts)).toBe(text)
    expect(splitPlatformDetail(text)).toEqual(parts)
  })

  it('a prefix before the message stays with it', () => {
    expect(
      splitPlatformDetail(
        '商品を追加できませんでした：在庫が不足しています。\n詳細: Insufficient inventory.',
      ),
    ).toEqual({
      message: '商品を追加できませんでした：在庫が不足しています。',
      detail: 'Insufficient inventory.',
    })
  })
})
