import { z } from 'zod'
import { unknownKeys, ZPlatformId, ZText } from './primitives.ts'
import { ZGroupProduct } from './selling-plans.ts'

// Boxes (spec §3, §7 "Boxes"): a selection of a selling plan group's products, of which the
// shopper picks between minSelection and maxSelection. Kept by the app. A box is created with
// defaults, then saved field by field (spec §4), so a field that fails loses nothing else.

/** Spec §9: boxes are listed 100 at a time. */
export const BOX_PAGE_SIZE = 100
export const BOX_NAME_MAX = 255

const BOX_FIELDS = ['name', 'minSelection', 'maxSelection', 'sellingPlanGroupId'] as const

export const ZBox = z.object({
  id: z.string(),
  name: z.string().nullable(),
  minSelection: z.number().int().nullable(),
  maxSelection: z.number().int().nullable(),
  sellingPlanGroupId: z.string().nullable(),
  /** The chosen group as the mirror has it; null when none is chosen or it was deleted. */
  sellingPlanGroup: z
    .object({ id: z.string(), name: z.string(), productsCount: z.number().int() })
    .nullable(),
  /** What keeps the box from being complete (spec §5), field → Japanese message; {} when complete. */
  problems: z.partialRecord(z.enum(BOX_FIELDS), z.string()),
  complete: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Box = z.infer<typeof ZBox>

/** GET /app-admin/boxes: 100 a page, newest first. */
export const ZBoxListQuery = z.object({
  page: z.coerce
    .number({ error: 'ページは数字で指定してください' })
    .int('ページは整数で指定してください')
    .min(1, 'ページは1以上で指定してください')
    .max(100_000, 'ページが大きすぎます')
    .default(1),
})
export const ZBoxList = z.object({ boxes: z.array(ZBox), total: z.number().int(), page: z.number().int() })
export type BoxList = z.infer<typeof ZBoxList>

/** A box's fields as a request gives them; null or empty is refused when saved (spec §5). */
const boxFields = {
  name: ZText('ボックス名', { max: BOX_NAME_MAX }).nullable().optional(),
  minSelection: z
    .number({ error: '最小選択数は数値で入力してください' })
    .int('最小選択数は整数で入力してください')
    .max(10_000, '最小選択数が大きすぎます')
    .nullable()
    .optional(),
  maxSelection: z
    .number({ error: '最大選択数は数値で入力してください' })
    .int('最大選択数は整数で入力してください')
    .max(10_000, '最大選択数が大きすぎます')
    .nullable()
    .optional(),
  sellingPlanGroupId: ZPlatformId('販売プランID').nullable().optional(),
}

/**
 * POST /app-admin/boxes: a new box with the defaults (「新しいボックス」, min 1) and the fields
 * given over them, each judged as a save of that field (filled, min ≤ max ≤ the group's
 * products); a refused one creates nothing, and an unknown field is refused, never dropped.
 */
export const ZCreateBoxRequest = z.strictObject(boxFields, unknownKeys)
export type CreateBoxRequest = z.input<typeof ZCreateBoxRequest>

/**
 * PUT /app-admin/boxes/:id: the fields to save (one, as the editor saves them, or more). Null
 * or empty is refused: every field is required (spec §5). An unknown field is refused.
 */
export const ZUpdateBoxRequest = z
  .strictObject(boxFields, unknownKeys)
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: '保存する項目を指定してください' })
export type UpdateBoxRequest = z.input<typeof ZUpdateBoxRequest>

export const ZBoxParams = z.object({ id: ZPlatformId('ボックスID') })

/** GET /app-admin/boxes/:id: the box and its group's products (the first 30, spec §9). */
export const ZBoxDetail = z.object({ box: ZBox, products: z.array(ZGroupProduct) })
export type BoxDetail = z.infer<typeof ZBoxDetail>
