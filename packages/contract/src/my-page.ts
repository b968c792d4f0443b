import { SUBSCRIBER_ACTIONS } from '@teiki/domain'
import { z } from 'zod'
import { ZLineId } from './primitives.ts'

/**
 * マイページ (issue 26): what the subscriber reads of their own subscriptions, through the app
 * proxy (`/apps/teiki/…` → `/proxy/…`, signed by the platform) or the customer account page.
 * Only the signed-in customer's contracts of that shop, never another's.
 */
export const ZMyPageContract = z.object({
  contractId: z.string(),
  status: z.string(),
  /** 有効 / 一時停止 / 解約済み … */
  statusLabel: z.string(),
  /** The next order as billing will make it (domain nextOrderDates); null when none is coming. */
  nextBillingDate: z.string().nullable(),
  nextDeliveryDate: z.string().nullable(),
  /** 配送時間帯 label, or null for 指定なし. */
  deliveryTime: z.string().nullable(),
  currencyCode: z.string(),
  lines: z.array(
    z.object({
      /** The line's id, for a change of its quantity or product. */
      lineId: z.string(),
      title: z.string(),
      variantTitle: z.string().nullable(),
      quantity: z.number().int(),
      /** The line's price per unit as the contract holds it now. */
      unitPrice: z.number().nullable(),
      sellingPlanName: z.string().nullable(),
    }),
  ),
  /** お届け先 in Japanese order: 〒, prefecture, city, address, building; the name 姓 名. */
  address: z
    .object({
      name: z.string(),
      zip: z.string(),
      prefecture: z.string(),
      city: z.string(),
      address1: z.string(),
      address2: z.string(),
    })
    .nullable(),
  card: z.object({ brand: z.string(), lastDigits: z.string() }).nullable(),
  /** The contract's latest orders (newest first, at most 5). */
  orders: z.array(z.object({ name: z.string(), createdAt: z.string(), total: z.number().nullable() })),
  /** What this subscriber may change now: each change's refusal in Japanese, or null when allowed. */
  refusals: z.record(z.string(), z.string().nullable()),
  /** The days the next order may be moved to (null: not now). */
  dateWindow: z.object({ from: z.string(), to: z.string() }).nullable(),
})
export type MyPageContract = z.infer<typeof ZMyPageContract>

export const ZMyPageSubscriptions = z.object({
  contracts: z.array(ZMyPageContract),
  /** The products this customer may switch to (マイページで選べるバリエーション of their group). */
  swapVariants: z.array(z.object({ variantId: z.string(), title: z.string(), price: z.number().nullable() })),
  /** The shop carrier's time slots: value for the change, label to show. */
  slots: z.array(z.object({ value: z.string(), label: z.string() })),
  /** The shop's cancellation reasons, in the merchant's order. */
  cancellationReasons: z.array(z.object({ id: z.string(), reason: z.string() })),
})
export type MyPageSubscriptions = z.infer<typeof ZMyPageSubscriptions>

/** The changes a subscriber may make on マイページ, each switchable: the domain's list. */
export const MY_PAGE_ACTIONS = SUBSCRIBER_ACTIONS

/** 設定 › マイページ: which changes subscribers may make themselves, and the change lock. */
export const ZMyPageSettings = z.object({
  actions: z.object(
    Object.fromEntries(
      MY_PAGE_ACTIONS.map((a) => [a, z.boolean({ error: '有効・無効を指定してください' })]),
    ) as {
      [K in (typeof MY_PAGE_ACTIONS)[number]]: z.ZodBoolean
    },
  ),
  lockDays: z
    .number({ error: '変更受付の締切（日数）を数字で指定してください' })
    .int('変更受付の締切は日数（整数）で指定してください')
    .min(0, '変更受付の締切は0〜30日前で指定してください')
    .max(30, '変更受付の締切は0〜30日前で指定してください'),
})
export type MyPageSettingsBody = z.infer<typeof ZMyPageSettings>

/** GET/PUT /my-page-settings. */
export const ZMyPageSettingsResponse = z.object({ settings: ZMyPageSettings })
export type MyPageSettingsResponse = z.infer<typeof ZMyPageSettingsResponse>

/** What a subscriber's change answers: the contract as the page now shows it, and what was done. */
export const ZMyPageActionResponse = z.object({
  contract: ZMyPageContract,
  message: z.string(),
  /** A cancellation answered with the reason's offer (nothing changed yet): accept or decline it. */
  offer: z.object({ label: z.string(), kind: z.string() }).optional(),
})
export type MyPageActionResponse = z.infer<typeof ZMyPageActionResponse>

const ZCycles = z.coerce
  .number({ error: 'お休みする回数を指定してください' })
  .int('お休みする回数は1〜3回で指定してください')
  .min(1, 'お休みする回数は1〜3回で指定してください')
  .max(3, 'お休みする回数は1〜3回で指定してください')

/** The body of each subscriber change (forms post them as text: numbers are coerced). */
export const ZMyPagePauseBody = z.object({ cycles: ZCycles })
export const ZMyPageDateBody = z.object({
  date: z
    .string({ error: '日付を指定してください' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, '日付は YYYY-MM-DD で指定してください'),
})
export const ZMyPageQuantityBody = z.object({
  lineId: ZLineId,
  quantity: z.coerce
    .number({ error: '数量を指定してください' })
    .int('数量は1〜99の整数で指定してください')
    .min(1, '数量は1〜99の整数で指定してください')
    .max(99, '数量は1〜99の整数で指定してください'),
})
export const ZMyPageSlotBody = z.object({ deliveryTime: z.string({ error: '配送時間帯を指定してください' }) })
export const ZMyPageSwapBody = z.object({
  lineId: ZMyPageQuantityBody.shape.lineId,
  variantId: z
    .string({ error: '変更後の商品を指定してください' })
    .regex(/^\d{1,20}$/, '変更後の商品の指定が正しくありません'),
})
export const ZMyPageCancelBody = z.object({
  reasonId: z.string({ error: '解約の理由を選んでください' }).min(1, '解約の理由を選んでください'),
  /** The answer to the offer shown for this reason; absent on the first ask. */
  decision: z.enum(['accept', 'decline'], { error: 'オファーへの回答が正しくありません' }).optional(),
})
