import { z } from 'zod'
import { ZExportEncoding } from './exports.ts'

/** 出荷予定 (issue 25): how many days ahead, 7 / 14 / 31. */
export const FORECAST_DAYS = [7, 14, 31] as const

const ZForecastDays = z.coerce
  .number({ error: '期間は7、14、31日のいずれかで指定してください' })
  .refine((n): n is 7 | 14 | 31 => (FORECAST_DAYS as readonly number[]).includes(n), {
    message: '期間は7、14、31日のいずれかで指定してください',
  })
  .default(7)

export const ZShippingForecastQuery = z.object({ days: ZForecastDays })

/** The CSV's layout: the app's own (one row per order), or ヤマト運輸 B2クラウド's import layout. */
export const SHIPPING_CSV_LAYOUTS = ['standard', 'yamato-b2'] as const

export const ZShippingCsvQuery = z.object({
  days: ZForecastDays,
  encoding: ZExportEncoding.default('shift_jis'),
  layout: z
    .enum(SHIPPING_CSV_LAYOUTS, { error: 'レイアウトは standard か yamato-b2 を指定してください' })
    .default('standard'),
})
export type ShippingCsvQuery = z.infer<typeof ZShippingCsvQuery>

export const ZShippingForecastDay = z.object({
  date: z.string(),
  orders: z.number().int(),
  units: z.array(z.object({ sku: z.string(), quantity: z.number().int() })),
  /** Orders per 配送時間帯 (label 指定なし included) with the carrier's code ('' for none). */
  slots: z.array(z.object({ slot: z.string(), code: z.string(), orders: z.number().int() })),
  /** Orders per prefecture: the platform's code and its Japanese name ('' / 住所なし when unknown). */
  prefectures: z.array(z.object({ code: z.string(), name: z.string(), orders: z.number().int() })),
})
export type ShippingForecastDay = z.infer<typeof ZShippingForecastDay>

export const ZShippingForecast = z.object({
  from: z.string(),
  to: z.string(),
  /** The carrier of 配送設定 (its name), whose slot codes the answer and the CSV carry. */
  carrier: z.string(),
  /** 設定 › お届け準備期間: days from billing to delivery when the contract has no date. */
  prepDays: z.number().int(),
  orders: z.number().int(),
  units: z.number().int(),
  days: z.array(ZShippingForecastDay),
})
export type ShippingForecast = z.infer<typeof ZShippingForecast>
