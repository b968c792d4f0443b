import { CARRIER_KEYS, PREFECTURES } from '@teiki/domain'
import { z } from 'zod'
import { unknownKeys } from './primitives.ts'
import { ZDate } from './subscriptions.ts'

const days = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label}は数値で指定してください` })
    .int(`${label}は整数で指定してください`)
    .min(min, `${label}は${min}日以上で指定してください`)
    .max(max, `${label}は${max}日以内で指定してください`)

const PREFECTURE_CODES = new Set(PREFECTURES.map((p) => p.code))

/** 配送設定 (issue 25): the carrier, lead, extra days by prefecture, closed days, horizon, cutoff. */
export const ZDeliverySettings = z
  .strictObject(
    {
      carrier: z.enum(CARRIER_KEYS as [string, ...string[]], {
        error: '配送業者はヤマト運輸、佐川急便、日本郵便から選んでください',
      }),
      leadDays: days('最短お届け日数', 1, 14),
      extraDaysByPrefecture: z
        .record(z.string(), days('都道府県ごとの追加日数', 0, 7))
        .superRefine((record, ctx) => {
          for (const code of Object.keys(record)) {
            if (!PREFECTURE_CODES.has(code)) {
              ctx.addIssue({
                code: 'custom',
                message: `都道府県コード ${code.slice(0, 20)} はありません（JP-01〜JP-47）`,
              })
            }
          }
        }),
      closedYearEnd: z.boolean({ error: '年末年始の休配は true か false で指定してください' }),
      closedDates: z.array(ZDate).max(366, '休配日は366日までです'),
      horizonDays: days('お届け日を指定できる期間', 7, 90),
      cutoff: z
        .string({ error: '当日の締め時刻を指定してください' })
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, '当日の締め時刻は 12:00 のように指定してください'),
    },
    unknownKeys,
  )

  .superRefine((s, ctx) => {
    const longest = s.leadDays + Math.max(0, ...Object.values(s.extraDaysByPrefecture))
    if (s.horizonDays < longest) {
      ctx.addIssue({
        code: 'custom',
        path: ['horizonDays'],
        message: `お届け日を指定できる期間（${s.horizonDays}日）は最短お届け日数と追加日数の合計（${longest}日）以上にしてください`,
      })
    }
  })
export type DeliverySettingsBody = z.infer<typeof ZDeliverySettings>

/** GET/PUT /delivery-settings: the settings and the carrier's time slots the shop offers. */
export const ZDeliverySettingsResponse = z.object({
  settings: ZDeliverySettings,
  slots: z.array(z.object({ slot: z.string(), label: z.string(), code: z.string() })),
  /**
   * After a save: why the storefront's calendar (the app-data metafield teiki.delivery) was not
   * updated, in Japanese; null when it was, and on a read.
   */
  storefrontProblem: z.string().nullable(),
})
export type DeliverySettingsResponse = z.infer<typeof ZDeliverySettingsResponse>
