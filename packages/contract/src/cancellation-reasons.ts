import { z } from 'zod'
import { ZPlatformId, ZText } from './primitives.ts'
import { ZAnalyticsDay } from './reports.ts'

/** Longest reason text the shop's list accepts (the table's check constraint). */
export const CANCELLATION_REASON_MAX = 200

/** One of the shop's own cancellation reasons (spec §7 "Cancellation reasons"). */
export const ZCancellationReason = z.object({
  id: z.string(),
  reason: z.string(),
  /** Display order: reasons are listed by position, then by id. */
  position: z.number().int(),
})
export type CancellationReason = z.infer<typeof ZCancellationReason>

/** GET /app-admin/cancellation-reasons: the shop's live (not deleted) reasons, in order. */
export const ZCancellationReasonList = z.object({ reasons: z.array(ZCancellationReason) })
export type CancellationReasonList = z.infer<typeof ZCancellationReasonList>

/** POST /app-admin/cancellation-reasons and PUT /app-admin/cancellation-reasons/:id. */
export const ZCancellationReasonBody = z.object({
  reason: ZText('解約理由', { max: CANCELLATION_REASON_MAX }).min(1, '解約理由を入力してください'),
})

/** PUT and DELETE /app-admin/cancellation-reasons/:id. */
export const ZCancellationReasonParams = z.object({ id: ZPlatformId('解約理由ID') })
export type CancellationReasonBody = z.input<typeof ZCancellationReasonBody>

/** GET /app-admin/subscription-contracts/cancellation-reasons-grouped-by. */
export const ZCancellationReasonsGroupedByQuery = z.object({
  /** First Japan-time (shop zone) day of `cancelled_at`, inclusive. */
  startDate: ZAnalyticsDay('開始日').optional(),
  /** Last Japan-time (shop zone) day of `cancelled_at`, inclusive. */
  endDate: ZAnalyticsDay('終了日').optional(),
})
export type CancellationReasonsGroupedByQuery = z.input<typeof ZCancellationReasonsGroupedByQuery>

export const ZCancellationReasonGroup = z.object({
  /** The shop's reason; `null` for free-text reasons (grouped by their text). */
  reasonId: z.string().nullable(),
  /** The reason's current text (also when it was renamed or deleted since), or the free text. */
  reason: z.string(),
  count: z.number().int(),
})
export type CancellationReasonGroup = z.infer<typeof ZCancellationReasonGroup>

/** Recorded cancellations of the shop per reason, most frequent first. */
export const ZCancellationReasonsGroupedBy = z.object({
  groups: z.array(ZCancellationReasonGroup),
  /** Sum of the groups' counts. */
  total: z.number().int(),
})
export type CancellationReasonsGroupedBy = z.infer<typeof ZCancellationReasonsGroupedBy>

/** GET /app-admin/subscription-contracts/:id/cancellation-reason: nulls when none is recorded. */
export const ZContractCancellationReason = z.object({
  contractId: z.string(),
  reasonId: z.string().nullable(),
  /** The text as it was when the contract was cancelled. */
  reason: z.string().nullable(),
  /** ISO 8601 instant of the recorded cancellation. */
  cancelledAt: z.string().nullable(),
})
export type ContractCancellationReason = z.infer<typeof ZContractCancellationReason>

/** 解約防止オファー (issue 26): one per reason, shown once to a subscriber cancelling with it. */
export const ZRetentionOffer = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('skip') }),
    z.object({ kind: z.literal('pause'), cycles: z.number().int() }),
    z.object({ kind: z.literal('percent'), percent: z.number().int(), orders: z.number().int() }),
    z.object({ kind: z.literal('amount'), amount: z.number().int(), orders: z.number().int() }),
    z.object({ kind: z.literal('swap'), variantId: z.string(), title: z.string() }),
  ],
  { error: 'オファーの種類を選んでください' },
)
export type RetentionOfferBody = z.infer<typeof ZRetentionOffer>

/** PUT /app-admin/retention-offers/:id: the reason's offer, or null for none. */
export const ZRetentionOfferBody = z.object({ offer: ZRetentionOffer.nullable() })

/** GET /app-admin/retention-offers: each live reason's offer and what subscribers did with it. */
export const ZRetentionOffers = z.object({
  reasons: z.array(
    z.object({
      reasonId: z.string(),
      reason: z.string(),
      offer: ZRetentionOffer.nullable(),
      /** 「次回10%オフ」: the offer as the subscriber reads it; null without one. */
      offerLabel: z.string().nullable(),
      /** Subscribers who asked to cancel with this reason on マイページ. */
      asked: z.number().int(),
      /** …of whom were shown the offer. */
      offered: z.number().int(),
      /** …accepted it and stayed. */
      kept: z.number().int(),
      /** The revenue the accepted offers keep (domain revenueKept), in the shop's currency. */
      revenueKept: z.number(),
    }),
  ),
  totals: z.object({
    asked: z.number().int(),
    offered: z.number().int(),
    kept: z.number().int(),
    revenueKept: z.number(),
  }),
})
export type RetentionOffers = z.infer<typeof ZRetentionOffers>
