import { z } from 'zod'
import { ZText } from './primitives.ts'
import { reportRangeShape, withReportRange } from './reports.ts'

// Traffic (spec §3 "Traffic report row", §7 "Traffic"): page views and completed checkouts the
// web pixel (extensions/teiki-pixel) sends, and the contracts they brought.

const dimension = (label: string) => ZText(label, { max: 200 }).optional()

/** GET /traffic-actuation: exact filters (empty = all) and the range. */
export const ZTrafficQuery = withReportRange(
  z.object({
    ...reportRangeShape,
    source: dimension('流入元'),
    medium: dimension('メディア'),
    campaign: dimension('キャンペーン'),
    content: dimension('コンテンツ'),
  }),
)
export type TrafficQuery = z.infer<typeof ZTrafficQuery>

export const ZTrafficRow = z.object({
  source: z.string(),
  medium: z.string(),
  campaign: z.string(),
  content: z.string(),
  accessCount: z.number().int(),
  achievedCount: z.number().int(),
  /** achieved ÷ access, to one decimal (spec §9): `12.5%`, `—` without access. */
  rate: z.string(),
})
export type TrafficRow = z.infer<typeof ZTrafficRow>
export const ZTrafficReport = z.object({
  rows: z.array(ZTrafficRow),
  /**
   * The last day (`YYYY-MM-DD`, shop-local) of a generated history (the demo shop's: made up,
   * not measured), or null when every figure is the web pixel's. The screen says so.
   */
  generatedThrough: z.string().nullable(),
})
export type TrafficReport = z.infer<typeof ZTrafficReport>

/** GET /traffic-actuation/condition: the values the filters can take. */
export const ZTrafficConditions = z.object({
  source: z.array(z.string()),
  medium: z.array(z.string()),
  campaign: z.array(z.string()),
  content: z.array(z.string()),
})

/**
 * The shop's web pixel on the platform (webPixelCreate): connected (created or confirmed with
 * these settings), missing (never connected) or failed (the last try was refused or could not
 * reach the platform: `error` says why, in Japanese). Times are ISO instants.
 */
export const ZPixelConnection = z.object({
  status: z.enum(['connected', 'missing', 'failed']),
  webPixelId: z.string().nullable(),
  connectedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
  error: z.string().nullable(),
})
export type PixelConnection = z.infer<typeof ZPixelConnection>

/**
 * GET /traffic/pixel-settings (and POST /traffic/pixel-connection): the web pixel extension's
 * settings for this shop and whether the platform holds them.
 */
export const ZPixelSettings = z.object({
  accountID: z.string(),
  ingestUrl: z.string(),
  /** The サンクスページ's 計測タグ as the pixel holds them (JSON text, `[]` for none). */
  conversionTags: z.string(),
  connection: ZPixelConnection,
})
export type PixelSettings = z.infer<typeof ZPixelSettings>

// The pixel's ingest body (POST /pixel/events?shop=…&key=…). Strict and small: the endpoint is
// public, so every field is bounded and anything else is a 400.
export const PIXEL_MAX_EVENTS = 50
export const PIXEL_BODY_LIMIT = 32 * 1024

const ZEventId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'イベントIDが正しくありません')

export const ZPixelEvent = z.strictObject({
  id: ZEventId,
  name: z.enum(['page_viewed', 'checkout_completed']),
  timestamp: z.iso.datetime({ offset: true }),
  clientId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/, 'clientIdが正しくありません'),
  /** The page's URL (the landing page for page views): its utm_* parameters are read. */
  url: z.string().max(2048).optional(),
  /** A completed checkout's order id (decimal or gid). */
  orderId: z
    .string()
    .max(64)
    .regex(/^(gid:\/\/shopify\/Order\/)?[1-9][0-9]{0,18}$/, '注文IDが正しくありません')
    .optional(),
})
export type PixelEvent = z.infer<typeof ZPixelEvent>
export const ZPixelBatch = z.strictObject({ events: z.array(ZPixelEvent).min(1).max(PIXEL_MAX_EVENTS) })
export const ZPixelAck = z.object({ accepted: z.number().int(), duplicates: z.number().int() })
