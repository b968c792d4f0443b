import { z } from 'zod'
import { ZPlatformId, ZPlatformIdOrGid, ZText } from './primitives.ts'
import { ZVariantSummary } from './products.ts'

// Selling plan groups and their plans (spec §3, §7 "Selling plans"). What the merchant edits is
// the domain's SellingPlanForm; fields spec §5 requires to be "present" take null (an empty
// field), which the domain's validation names in Japanese. The edge only refuses shapes.

/** Spec §3 "Discount types" (the same lists as packages/domain/src/selling-plans). */
export const PLAN_DISCOUNT_TYPES = [
  'noDiscount',
  'fixedDiscount',
  'recurringDiscount',
  'recurringMultiDiscount',
] as const
export const PLAN_VALUE_TYPES = ['PERCENTAGE', 'FIXED_AMOUNT', 'PRICE'] as const
export const PLAN_CATEGORIES = ['SUBSCRIPTION', 'PRE_ORDER', 'TRY_BEFORE_YOU_BUY', 'OTHER'] as const
export const PLAN_INTERVALS = ['DAY', 'WEEK', 'MONTH'] as const

/** Spec §9: selling plan groups are listed 10 a page; a group has at most 10 plans. */
export const SELLING_PLAN_GROUP_PAGE_SIZE = 10
export const SELLING_PLANS_PER_GROUP_MAX = 10
/** Spec §9: the first 30 products of a group; its variants 100 at a time. */
export const GROUP_PRODUCTS_SHOWN = 30
export const GROUP_VARIANTS_PAGE_SIZE = 100

const INT32_MAX = 2_147_483_647

/** A whole number a merchant typed, or null for an empty field (the domain's rules judge it). */
const ZIntOrNull = (label: string) =>
  z
    .number({ error: `${label}は数値で入力してください` })
    .int(`${label}は整数で入力してください`)
    .min(-INT32_MAX, `${label}が小さすぎます`)
    .max(INT32_MAX, `${label}が大きすぎます`)
    .nullable()

/** A discount value (a percentage or an amount), or null for an empty field. */
const ZValueOrNull = (label: string) =>
  z
    .number({ error: `${label}は数値で入力してください` })
    .min(-1e12, `${label}が小さすぎます`)
    .max(1e12, `${label}が大きすぎます`)
    .nullable()

export const ZPlanAnchor = z.object({
  type: z.enum(['WEEKDAY', 'MONTHDAY', 'YEARDAY'], { error: '基準日の種類が正しくありません' }),
  day: z.number().int().min(1, '基準日は1以上で指定してください').max(31, '基準日は31以下で指定してください'),
  month: z.number().int().min(1).max(12).nullable().default(null),
})

/** One plan of a group as the editor sends it: `id` for a plan that exists, none for a new one. */
export const ZSellingPlanInput = z.object({
  id: ZPlatformId('プランID').optional(),
  name: ZText('プラン名', { max: 255 }).nullable(),
  description: ZText('プランの説明', { max: 1000, multiline: true }).nullable().default(null),
  option: ZText('選択肢', { max: 255 }).nullable().default(null),
  category: z.enum(PLAN_CATEGORIES, { error: 'プランの種類が正しくありません' }).default('SUBSCRIPTION'),
  interval: z.enum(PLAN_INTERVALS, { error: 'お届け周期は日・週・月から選んでください' }),
  intervalCount: ZIntOrNull('お届け間隔'),
  minCycles: ZIntOrNull('最低継続回数'),
  maxCycles: ZIntOrNull('最大継続回数').default(null),
  anchors: z.array(ZPlanAnchor).max(10, '基準日は10件までです').default([]),
  deliveryInterval: z.enum(PLAN_INTERVALS).nullable().default(null),
  deliveryIntervalCount: ZIntOrNull('配送間隔').default(null),
  cutoff: ZIntOrNull('締め日').default(null),
  preAnchorBehavior: z.enum(['ASAP', 'NEXT']).default('ASAP'),
  discountType: z.enum(PLAN_DISCOUNT_TYPES, { error: '割引の種類が正しくありません' }).nullable(),
  valueType: z.enum(PLAN_VALUE_TYPES, { error: '割引の単位が正しくありません' }).nullable().default(null),
  initialValue: ZValueOrNull('割引の値').default(null),
  laterValue: ZValueOrNull('2回目以降の割引の値').default(null),
  afterCycle: ZIntOrNull('割引を切り替える回数').default(null),
  cycleDiscounts: z
    .array(z.object({ cycle: ZIntOrNull('回数'), value: ZValueOrNull('割引の値') }))
    .max(36, '回数ごとの割引は36件までです')
    .default([]),
})
export type SellingPlanInput = z.input<typeof ZSellingPlanInput>

/** A plan as the app answers it: the editor's fields, its id and its discount type (spec §4). */
export const ZSellingPlan = ZSellingPlanInput.extend({
  id: z.string(),
  name: z.string(),
  discountType: z.enum(PLAN_DISCOUNT_TYPES),
})
export type SellingPlan = z.infer<typeof ZSellingPlan>

const ZIdList = (label: string) =>
  z
    .array(ZPlatformIdOrGid(label, label === '商品ID' ? 'Product' : 'ProductVariant'))
    .max(250, `${label}は250件までです`)

/** POST /app-admin/selling-plan-groups and PUT /app-admin/selling-plan-groups/:id. */
export const ZSellingPlanGroupInput = z.object({
  name: ZText('販売プラン名', { max: 255 }).min(1, '販売プラン名を入力してください'),
  /** The merchant's own code; empty: the name. */
  merchantCode: ZText('管理コード', { max: 255 }).default(''),
  description: ZText('販売プランの説明', { max: 2000, multiline: true }).nullable().default(null),
  /** The name of the choice the plans offer (the group's option), e.g. 「お届け頻度」. */
  option: ZText('選択肢の名前', { max: 255 }).min(1, '選択肢の名前を入力してください').default('お届け頻度'),
  /** Every plan of the group: a plan of the group left out is deleted on update. */
  plans: z
    .array(ZSellingPlanInput)
    .min(1, 'プランを1件以上追加してください')
    .max(SELLING_PLANS_PER_GROUP_MAX, `プランは${SELLING_PLANS_PER_GROUP_MAX}件までです`),
  /** Create only: the products the group starts with (variants: POST …/products). */
  productIds: ZIdList('商品ID').default([]),
})
export type SellingPlanGroupInput = z.input<typeof ZSellingPlanGroupInput>

export const ZSellingPlanGroupParams = z.object({ id: ZPlatformId('販売プランID') })
export const ZSellingPlanParams = z.object({ id: ZPlatformId('プランID') })

/** A row of the group list (spec §3: id, name, merchantCode, products, variants, plans). */
export const ZSellingPlanGroupSummary = z.object({
  id: z.string(),
  name: z.string(),
  merchantCode: z.string().nullable(),
  productsCount: z.number().int(),
  productVariantsCount: z.number().int(),
  plans: z.array(z.object({ id: z.string(), name: z.string(), discountType: z.enum(PLAN_DISCOUNT_TYPES) })),
  createdAt: z.string().nullable(),
})
export type SellingPlanGroupSummary = z.infer<typeof ZSellingPlanGroupSummary>

/** GET /app-admin/subscriptions/sellingPlanGroups: 10 a page, newest first, by name. */
export const ZSellingPlanGroupListQuery = z.object({
  query: ZText('検索語', { max: 200 }).default(''),
  page: z.coerce
    .number({ error: 'ページは数字で指定してください' })
    .int('ページは整数で指定してください')
    .min(1, 'ページは1以上で指定してください')
    .max(100_000, 'ページが大きすぎます')
    .default(1),
})
export type SellingPlanGroupListQuery = z.input<typeof ZSellingPlanGroupListQuery>

export const ZSellingPlanGroupList = z.object({
  groups: z.array(ZSellingPlanGroupSummary),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
})
export type SellingPlanGroupList = z.infer<typeof ZSellingPlanGroupList>

/** GET /app-admin/subscriptions/sellingPlanGroups/:id/sellingPlans: the plans as the mirror holds them. */
export const ZSellingPlanList = z.object({ sellingPlanGroupId: z.string(), plans: z.array(ZSellingPlan) })
export type SellingPlanList = z.infer<typeof ZSellingPlanList>

export const ZGroupProduct = z.object({ id: z.string(), title: z.string(), imageUrl: z.string().nullable() })
export type GroupProduct = z.infer<typeof ZGroupProduct>

/** GET /app-admin/selling-plan-groups/:id: the group as the platform has it now, for the editor. */
export const ZSellingPlanGroupDetail = z.object({
  id: z.string(),
  name: z.string(),
  merchantCode: z.string().nullable(),
  description: z.string().nullable(),
  option: z.string(),
  productsCount: z.number().int(),
  productVariantsCount: z.number().int(),
  /** The group's first 30 products (spec §9). */
  products: z.array(ZGroupProduct),
  plans: z.array(ZSellingPlan),
  /** The shop's currency: JPY amounts are whole yen. */
  currencyCode: z.string(),
})
export type SellingPlanGroupDetail = z.infer<typeof ZSellingPlanGroupDetail>

/** GET /app-admin/selling-plan-groups/:id/variants: 100 a page (spec §9). */
export const ZGroupVariantsQuery = z.object({ after: ZText('カーソル', { max: 500 }).optional() })
export const ZGroupVariants = z.object({
  variants: z.array(
    z.object({ id: z.string(), title: z.string(), productId: z.string(), productTitle: z.string() }),
  ),
  hasNextPage: z.boolean(),
  endCursor: z.string().nullable(),
})
export type GroupVariants = z.infer<typeof ZGroupVariants>

/** POST /app-admin/selling-plan-groups/:id/products: what to add and remove (ids or gids). */
export const ZGroupProductsChange = z
  .object({
    addProductIds: ZIdList('商品ID').default([]),
    removeProductIds: ZIdList('商品ID').default([]),
    addVariantIds: ZIdList('バリエーションID').default([]),
    removeVariantIds: ZIdList('バリエーションID').default([]),
  })
  .refine((b) => Object.values(b).some((ids) => ids.length > 0), {
    error: '追加または削除する商品を指定してください',
  })
export type GroupProductsChange = z.input<typeof ZGroupProductsChange>

/** Custom cycle discounts of a recurring-multi plan, kept by the app (ADR 0013). */
export const ZCustomCycleDiscountsBody = z.object({
  adjustmentType: z.enum(PLAN_VALUE_TYPES, { error: '割引の単位が正しくありません' }),
  cycleDiscounts: z
    .array(z.object({ cycle: ZIntOrNull('回数'), value: ZValueOrNull('割引の値') }))
    .max(36, '回数ごとの割引は36件までです'),
})
export type CustomCycleDiscountsBody = z.input<typeof ZCustomCycleDiscountsBody>

export const ZCustomCycleDiscounts = z.object({
  sellingPlanId: z.string(),
  /** Null when the plan has none (not recurring multi). */
  adjustmentType: z.enum(PLAN_VALUE_TYPES).nullable(),
  /** By cycle; `value` is decimal text (amounts in the currency's minor unit). */
  cycleDiscounts: z.array(z.object({ cycle: z.number().int(), value: z.string() })),
})
export type CustomCycleDiscounts = z.infer<typeof ZCustomCycleDiscounts>

/** GET /app-admin/selling-plans/:id/selling-plan-group-id. */
export const ZSellingPlanGroupOfPlan = z.object({ sellingPlanId: z.string(), sellingPlanGroupId: z.string() })

/** GET /app-admin/free-shipping-profile/exist: the app's free-shipping profile, and a group's place in it. */
export const ZFreeShippingExistQuery = z.object({
  sellingPlanGroupId: ZPlatformId('販売プランID').optional(),
})
export const ZFreeShippingExist = z.object({
  exists: z.boolean(),
  profileId: z.string().nullable(),
  /** Whether the group ships free; null when no group was asked about. */
  free: z.boolean().nullable(),
})
export type FreeShippingExist = z.infer<typeof ZFreeShippingExist>

/** GET /app-admin/free-shipping-profile/update: puts the group in (free=true) or out of the profile. */
export const ZFreeShippingUpdateQuery = z.object({
  sellingPlanGroupId: ZPlatformId('販売プランID'),
  free: z
    .enum(['true', 'false'], { error: 'free は true か false で指定してください' })
    .transform((v) => v === 'true'),
})
export const ZFreeShippingUpdate = z.object({
  sellingPlanGroupId: z.string(),
  free: z.boolean(),
  profileId: z.string().nullable(),
})
export type FreeShippingUpdate = z.infer<typeof ZFreeShippingUpdate>

const ZVariantOrGid = ZPlatformIdOrGid('バリエーションID', 'ProductVariant')

/** PUT and GET /app-admin/selling-plan-groups/:id/variants/:variantId/parent (0: the whole group). */
export const ZParentVariantParams = z.object({
  id: ZPlatformId('販売プランID'),
  variantId: z
    .string({ error: 'バリエーションIDを指定してください' })
    .transform((value, ctx) => {
      if (value === '0') return '0'
      const parsed = ZVariantOrGid.safeParse(value)
      if (parsed.success) return parsed.data
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.issues[0]?.message ?? 'バリエーションIDが正しくありません',
      })
      return z.NEVER
    })
    .describe('a variant id of the group, or 0 for the group as a whole'),
})
export const ZParentVariantBody = z.object({
  parentVariantId: ZPlatformIdOrGid('親商品のバリエーションID', 'ProductVariant').nullable(),
})
export const ZParentVariant = z.object({
  sellingPlanGroupId: z.string(),
  variantId: z.string(),
  parentVariantId: z.string().nullable(),
  parent: ZVariantSummary.nullable(),
})
export type ParentVariant = z.infer<typeof ZParentVariant>
