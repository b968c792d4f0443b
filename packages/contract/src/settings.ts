import { z } from 'zod'
import { ZPlatformIdOrGid, ZText } from './primitives.ts'
import { ZPixelConnection } from './traffic.ts'

/** Longest JSON text of the note attribute and SKU conversion settings. */
export const SETTINGS_JSON_MAX = 20_000
/** Longest サンクスページ settings text (JSON-encoded, as sent). */
export const THANK_PAGE_SCRIPT_MAX = 120_000

/** The shop's settings (設定, spec §3 "Settings"). */
export const ZShopSettings = z.object({
  /** JSON text: the attributes added to every subscription order, `[{"key":"…","value":"…"}]`. */
  noteAttribute: ZText('注文メモ属性', { max: SETTINGS_JSON_MAX, multiline: true }),
  /** JSON text: SKUs replaced in exports and orders, `[{"from":"…","to":"…"}]`. */
  skuConversions: ZText('SKU変換', { max: SETTINGS_JSON_MAX, multiline: true }),
  /**
   * JSON-encoded text of the サンクスページ settings: `""` (none) or `{"message": "…", "tags":
   * [{"name","url","subscriptionOnly"}], "legacyScript": "…"}` — the message the thank-you block
   * shows and the 計測タグ the web pixel requests (domain settings/thank-you.ts, ADR 0039).
   */
  thankPageScript: ZText('サンクスページの設定', { max: THANK_PAGE_SCRIPT_MAX, multiline: true }),
  /** Days between billing and delivery (お届け準備期間), 0–30; spec §5 decides who may change it. */
  deliveryPrepDays: z
    .number({ error: 'お届け準備期間は数値で指定してください' })
    .int('お届け準備期間は整数で指定してください')
    .min(0, 'お届け準備期間は0日以上で指定してください')
    .max(30, 'お届け準備期間は30日以内で指定してください'),
})
export type ShopSettings = z.infer<typeof ZShopSettings>

/** PUT /settings: `{ settings }`. */
export const ZSettingsBody = z.object({ settings: ZShopSettings })
export type SettingsBody = z.input<typeof ZSettingsBody>

/** GET /current-delivery-prep-days-operation (spec §5): may the prep days be changed now, and why. */
export const ZDeliveryPrepDaysOperation = z.object({
  updatable: z.boolean(),
  /** The shop's plan (or its operator flag) allows it. */
  planAllows: z.boolean(),
  /** Contracts the shop has, counted up to 5 (the rule's threshold). */
  contractCount: z.number().int(),
  /** Why not, in Japanese; null when updatable. */
  reason: z.string().nullable(),
})
export type DeliveryPrepDaysOperation = z.infer<typeof ZDeliveryPrepDaysOperation>

export const ZSettingsResponse = z.object({
  settings: ZShopSettings,
  deliveryPrepDays: ZDeliveryPrepDaysOperation,
  /** The app's web pixel, which sends the サンクスページ's 計測タグ: connected, or why not. */
  pixel: ZPixelConnection,
})
export type SettingsResponse = z.infer<typeof ZSettingsResponse>

/** Customer groups of the my-page targets: 2 only for shops flagged with two groups (spec §6). */
export const ZCustomerGroup = z.union([z.literal(1), z.literal(2)], {
  error: '顧客グループは1または2で指定してください',
})

export const ZMyPageTargetVariant = z.object({
  variantId: z.string(),
  group: z.number().int(),
  productTitle: z.string().nullable(),
  variantTitle: z.string().nullable(),
  sku: z.string().nullable(),
  createdAt: z.string(),
})
export type MyPageTargetVariant = z.infer<typeof ZMyPageTargetVariant>

/** GET /my-page-target-product-variants: the variants customers may switch to on their my page. */
export const ZMyPageTargetVariantList = z.object({
  variants: z.array(ZMyPageTargetVariant),
  /** The shop uses two customer groups (flag). */
  twoCustomerGroups: z.boolean(),
})
export type MyPageTargetVariantList = z.infer<typeof ZMyPageTargetVariantList>

/** POST /my-page-target-product-variants. */
export const ZMyPageTargetVariantBody = z.object({
  variantIds: z
    .array(ZPlatformIdOrGid('バリエーションID', 'ProductVariant'), {
      error: 'バリエーションIDを指定してください',
    })
    .min(1, 'バリエーションを1件以上指定してください')
    .max(100, 'バリエーションは一度に100件まで指定できます'),
  group: ZCustomerGroup.default(1),
})
export type MyPageTargetVariantBody = z.input<typeof ZMyPageTargetVariantBody>

/** DELETE /my-page-target-product-variants?variantId=…&group=… */
export const ZMyPageTargetVariantDeleteQuery = z.object({
  variantId: ZPlatformIdOrGid('バリエーションID', 'ProductVariant'),
  group: z.coerce.number().pipe(ZCustomerGroup).default(1),
})
