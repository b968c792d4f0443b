import { z } from 'zod'
import { isPlatformId, ZLineId, ZPlatformId, ZPlatformIdOrGid, ZText, ZUnsignedInt64 } from './primitives.ts'
import { ZDate } from './subscriptions.ts'

/**
 * Contract edits (spec §4, §7 contract actions). Every edit may carry the `revision` the
 * merchant's screen was built from (the platform's revisionId, as served by the detail
 * endpoint): when the contract has changed since, the edit answers 409 instead of silently
 * overwriting someone else's change. Without `revision` the edit applies to whatever is
 * current (the spec's callers never send it; the app's own screens always do).
 */

export const ZContractIdParam = z.object({ id: ZPlatformId('契約ID') })
export const ZContractLineParams = z.object({ contractId: ZPlatformId('契約ID'), lineId: ZLineId })

export const ZRevision = ZUnsignedInt64('revision')
  .optional()
  .describe("the contract's revisionId the edit was made from; 409 when the contract has changed since")

export const ZRevisionQuery = z.object({ revision: ZRevision })

/** The answer to every edit: the contract's state after it, for the screen to carry on from. */
export const ZContractEditResponse = z.object({
  contractId: z.string(),
  revision: z.string(),
  /** ISO 8601 instant of the contract's last change on the platform. */
  updatedAt: z.string(),
})
export type ContractEditResponse = z.infer<typeof ZContractEditResponse>

/** PUT /app-admin/next-billing-date. The date is a Japan-time calendar date. */
export const ZNextBillingDateRequest = z.object({
  contractId: ZPlatformId('契約ID'),
  nextBillingDate: ZDate,
  /** Spec §6: the admin screens send true; recorded in the contract's history. */
  isAdmin: z.boolean().default(true),
  revision: ZRevision,
})
export type NextBillingDateRequest = z.input<typeof ZNextBillingDateRequest>

/** GET /app-admin/subscriptions/:id/next-delivery-date */
export const ZNextDeliveryDateResponse = z.object({
  contractId: z.string(),
  /** The delivery date set on the contract (Japan time), or null when none was set. */
  nextDeliveryDate: ZDate.nullable(),
  /** The next billing date in Japan time: deliveries cannot be set before it. */
  nextBillingDate: ZDate.nullable(),
})
export type NextDeliveryDateResponse = z.infer<typeof ZNextDeliveryDateResponse>

/** PUT /app-admin/subscriptions/:id/next-delivery-date; null clears the date. */
export const ZNextDeliveryDateRequest = z.object({
  nextDeliveryDate: ZDate.nullable(),
  isAdmin: z.boolean().default(true),
  revision: ZRevision,
})
export type NextDeliveryDateRequest = z.input<typeof ZNextDeliveryDateRequest>

/**
 * Delivery time slots as Japanese carriers offer them (the codes are stored on the contract
 * and copied to each order as a custom attribute). `NONE` clears the slot.
 */
export const DELIVERY_TIME_SLOTS = ['NONE', 'AM', '12-14', '14-16', '16-18', '18-20', '19-21'] as const
export const ZDeliveryTime = z.enum(DELIVERY_TIME_SLOTS, {
  error:
    '配送時間帯は 指定なし・午前中・12-14時・14-16時・16-18時・18-20時・19-21時 のいずれかを指定してください',
})
export type DeliveryTime = z.infer<typeof ZDeliveryTime>

/** PUT /app-admin/subscription-contracts/:id/specify-delivery-time */
export const ZDeliveryTimeRequest = z.object({ deliveryTime: ZDeliveryTime, revision: ZRevision })
export type DeliveryTimeRequest = z.input<typeof ZDeliveryTimeRequest>

export const ZInterval = z.enum(['DAY', 'WEEK', 'MONTH'], {
  error: '請求間隔の単位は 日・週・月 のいずれかを指定してください',
})

// The longest each month can be. 29 February is an anchor (it bills on 28 February in common
// years), 30 February is not: ADR 0009, the same rule as the domain's assertAnchor.
const LONGEST_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const
const NOT_YEARDAY_MONTH = '月は年単位（YEARDAY）のアンカーにだけ指定できます'

/** One SellingPlanAnchor, with the platform's rules for its type (a 400 for each, in Japanese). */
export const ZAnchorInput = z
  .object({
    type: z.enum(['WEEKDAY', 'MONTHDAY', 'YEARDAY'], { error: 'アンカーの種類が正しくありません' }),
    day: z
      .number({ error: 'アンカーの日を数値で指定してください' })
      .int('アンカーの日は整数で指定してください')
      .min(1, 'アンカーの日は1以上で指定してください')
      .max(31, 'アンカーの日は31以下で指定してください'),
    month: z
      .number({ error: 'アンカーの月を数値で指定してください' })
      .int('アンカーの月は1〜12で指定してください')
      .min(1, 'アンカーの月は1〜12で指定してください')
      .max(12, 'アンカーの月は1〜12で指定してください')
      .nullable()
      .optional(),
    cutoffDay: z
      .number({ error: '締め日を数値で指定してください' })
      .int('締め日は整数で指定してください')
      .min(1, '締め日は1以上で指定してください')
      .max(31, '締め日は31以下で指定してください')
      .nullable()
      .optional(),
  })
  .superRefine((anchor, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    if (anchor.type === 'WEEKDAY') {
      if (anchor.day > 7) issue('day', '曜日のアンカーは1（月曜）〜7（日曜）で指定してください')
      if (anchor.cutoffDay != null && anchor.cutoffDay > 7) {
        issue('cutoffDay', '曜日のアンカーの締め日は1（月曜）〜7（日曜）で指定してください')
      }
    }
    if (anchor.type !== 'YEARDAY') {
      if (anchor.month != null) issue('month', NOT_YEARDAY_MONTH)
      return
    }
    if (anchor.month == null) return issue('month', '年単位のアンカーには月（1〜12）を指定してください')
    if (anchor.day > (LONGEST_MONTH[anchor.month - 1] ?? 31)) {
      issue('day', `${anchor.month}月${anchor.day}日は存在しない日付のため、アンカーに指定できません`)
    }
    if (anchor.cutoffDay != null) issue('cutoffDay', '年単位のアンカーには締め日を指定できません')
  })
export type AnchorInput = z.infer<typeof ZAnchorInput>

/** The anchor type each interval takes (ADR 0009): a day of the week, of the month, or none. */
const ANCHOR_RULE_OF_INTERVAL = {
  DAY: { type: null, message: '日単位の間隔にはアンカーを指定できません' },
  WEEK: { type: 'WEEKDAY', message: '週単位の間隔のアンカーは曜日（1=月曜〜7=日曜）で指定してください' },
  MONTH: { type: 'MONTHDAY', message: '月単位の間隔のアンカーは日付（1〜31日）で指定してください' },
} as const

/** PUT /app-admin/interval-and-interval-count */
export const ZIntervalRequest = z
  .object({
    contractId: ZPlatformId('契約ID'),
    interval: ZInterval,
    intervalCount: z
      .number({ error: '間隔を数値で指定してください' })
      .int('間隔は整数で指定してください')
      .min(1, '間隔は1以上で指定してください')
      .max(52, '間隔は52以下で指定してください'),
    /** Several anchors bill on each of them (monthly on the 10th and the 20th); no duplicates. */
    anchors: z.array(ZAnchorInput).max(31, 'アンカーは31個まで指定できます').default([]),
    revision: ZRevision,
  })
  .superRefine((value, ctx) => {
    const rule = ANCHOR_RULE_OF_INTERVAL[value.interval]
    const seen = new Set<string>()
    value.anchors.forEach((anchor, index) => {
      if (anchor.type !== rule.type) {
        ctx.addIssue({ code: 'custom', path: ['anchors', index], message: rule.message })
        return
      }
      // Two equal anchors would bill the same day twice: the merchant meant one (ADR 0009).
      const key = `${anchor.type}:${anchor.month ?? ''}:${anchor.day}`
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', path: ['anchors', index], message: '同じアンカーが重複しています' })
      }
      seen.add(key)
    })
  })
export type IntervalRequest = z.input<typeof ZIntervalRequest>

/** POST /app-admin/create-order-now */
export const ZCreateOrderNowRequest = z.object({ contractId: ZPlatformId('契約ID'), revision: ZRevision })
export type CreateOrderNowRequest = z.input<typeof ZCreateOrderNowRequest>

export const ZCreateOrderNowResponse = ZContractEditResponse.extend({
  billingAttemptId: z.string(),
  /** false while the platform is still charging; the order follows by webhook. */
  ready: z.boolean(),
  orderId: z.string().nullable(),
  errorMessage: z.string().nullable(),
})
export type CreateOrderNowResponse = z.infer<typeof ZCreateOrderNowResponse>

const ZQuantity = z
  .number({ error: '数量を数値で指定してください' })
  .int('数量は整数で指定してください')
  .min(1, '数量は1以上で指定してください')
  .max(999, '数量は999以下で指定してください')

const ZPrice = z
  .string()
  .regex(/^\d{1,12}(\.\d{1,2})?$/, '価格は0以上の数値で指定してください（例: 1980）')
  .describe('decimal text in the contract currency')

/** POST /app-admin/subscriptions/:id/lines */
export const ZAddLineRequest = z.object({
  variantId: ZPlatformIdOrGid('バリエーションID', 'ProductVariant'),
  quantity: ZQuantity.default(1),
  /** The line's price; the variant's price when omitted. */
  price: ZPrice.optional(),
  revision: ZRevision,
})
export type AddLineRequest = z.input<typeof ZAddLineRequest>

/** PUT /app-admin/subscriptions/:contractId/:lineId/quantity */
export const ZLineQuantityRequest = z.object({ quantity: ZQuantity, revision: ZRevision })
export type LineQuantityRequest = z.input<typeof ZLineQuantityRequest>

/** POST /app-admin/subscription-contracts/:id/price-manually-changed */
export const ZPriceManuallyChangedRequest = z.object({
  lineId: ZLineId.optional(),
  price: ZPrice.optional().describe('the new line price; when given the line is repriced first'),
  revision: ZRevision,
})
export type PriceManuallyChangedRequest = z.input<typeof ZPriceManuallyChangedRequest>

/** PUT /app-admin/subscriptions/:contractId/:lineId/product-variant */
export const ZSwapVariantRequest = z.object({
  variantId: ZPlatformIdOrGid('バリエーションID', 'ProductVariant'),
  /** Keep the line's current price instead of taking the new variant's. */
  keepPrice: z.boolean().default(false),
  revision: ZRevision,
})
export type SwapVariantRequest = z.input<typeof ZSwapVariantRequest>

/** PUT /app-admin/subscription-contracts/:id/note */
export const ZNoteRequest = z.object({
  note: ZText('メモ', { max: 5000, multiline: true }),
  revision: ZRevision,
})
export type NoteRequest = z.input<typeof ZNoteRequest>

/** GET and PUT /app-admin/subscription-contracts/:id/order-count */
export const ZOrderCountRequest = z.object({
  count: z
    .number({ error: '購入回数を数値で指定してください' })
    .int('購入回数は整数で指定してください')
    .min(0, '購入回数は0以上で指定してください')
    .max(10_000, '購入回数は10000以下で指定してください'),
})
export type OrderCountRequest = z.input<typeof ZOrderCountRequest>

export const ZOrderCountResponse = z.object({
  contractId: z.string(),
  /** Orders of the contract: the merchant's correction (if any) plus orders counted since. */
  count: z.number().int(),
  /** The value the merchant set and when, or null when the count is the app's own. */
  setCount: z.number().int().nullable(),
  setAt: z.string().nullable(),
})
export type OrderCountResponse = z.infer<typeof ZOrderCountResponse>

const ZAddressText = (label: string, max: number) => ZText(label, { max })

/** A Japanese shipping address; `provinceCode` is the ISO code (JP-01 … JP-47). */
export const ZDeliveryAddress = z.object({
  lastName: ZAddressText('姓', 50).min(1, '姓を入力してください'),
  firstName: ZAddressText('名', 50).default(''),
  zip: ZText('郵便番号', { max: 8 }).regex(
    /^\d{3}-?\d{4}$/,
    '郵便番号は7桁の数字（例: 150-0001）で入力してください',
  ),
  provinceCode: ZText('都道府県', { max: 5 }).regex(
    /^JP-(0[1-9]|[1-3]\d|4[0-7])$/,
    '都道府県を選択してください',
  ),
  city: ZAddressText('市区町村', 100).min(1, '市区町村を入力してください'),
  address1: ZAddressText('番地', 200).min(1, '番地を入力してください'),
  address2: ZAddressText('建物名・部屋番号', 200).default(''),
  phone: ZText('電話番号', { max: 20 })
    .regex(/^(\+81|0)[0-9-]{9,13}$/, '電話番号の形式が正しくありません')
    .or(z.literal(''))
    .default(''),
})
export type DeliveryAddress = z.infer<typeof ZDeliveryAddress>

/** PUT /app-admin/subscriptions/:id/delivery-address */
export const ZDeliveryAddressRequest = z.object({ address: ZDeliveryAddress, revision: ZRevision })
export type DeliveryAddressRequest = z.input<typeof ZDeliveryAddressRequest>

/** PUT /app-admin/modify-payment-method: the contract charges another of the customer's methods. */
export const ZModifyPaymentMethodRequest = z.object({
  contractId: ZPlatformId('契約ID'),
  /** The platform's id: decimal (then within the platform's id range) or an opaque token. */
  paymentMethodId: z
    .string({ error: '決済方法IDを指定してください' })
    .regex(/^[A-Za-z0-9]{1,64}$/, '決済方法IDの形式が正しくありません')
    .refine((value) => !/^[0-9]+$/.test(value) || isPlatformId(value), {
      error: '決済方法IDの形式が正しくありません',
    }),
  revision: ZRevision,
})
export type ModifyPaymentMethodRequest = z.input<typeof ZModifyPaymentMethodRequest>

/** POST /app-admin/subscription-contracts/:id/payment-method-update-email */
export const ZPaymentUpdateEmailResponse = z.object({ contractId: z.string(), sentTo: z.string().nullable() })
export type PaymentUpdateEmailResponse = z.infer<typeof ZPaymentUpdateEmailResponse>

/** GET /app-admin/subscriptions/:id/discount-code/ */
export const ZContractDiscount = z.object({
  id: z.string(),
  title: z.string(),
  usageCount: z.number().int(),
  recurringCycleLimit: z.number().int().nullable(),
  targetType: z.string(),
})
export const ZDiscountCodesResponse = z.object({
  contractId: z.string(),
  discounts: z.array(ZContractDiscount),
})
export type DiscountCodesResponse = z.infer<typeof ZDiscountCodesResponse>

/** PUT /app-admin/subscriptions/:id/discount-code/apply */
export const ZApplyDiscountCodeRequest = z.object({
  discountCode: ZText('割引コード', { max: 255 }).min(1, '割引コードを入力してください'),
  revision: ZRevision,
})
export type ApplyDiscountCodeRequest = z.input<typeof ZApplyDiscountCodeRequest>

export const ZDiscountCodeParams = z.object({
  id: ZPlatformId('契約ID'),
  code: ZText('割引コード', { max: 255, trim: false }).min(1, '割引コードを指定してください'),
})
