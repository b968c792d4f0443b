import type { ContractEditResponse, DeliveryTime, NextDeliveryDateResponse } from '@teiki/contract'
import {
  billingInstantOn,
  CARRIERS,
  carrierOffers,
  DELIVERY_DATE_ATTRIBUTE,
  DELIVERY_TIME_ATTRIBUTE,
  dateProblem,
  deliveryDateOf,
  deliveryTimeLabel,
  formatDateJa,
  toZonedDate,
  withAttribute,
} from '@teiki/domain'
import { scheduleAfter } from '../../billing/schedule.ts'
import { notFound } from '../../http/app-error.ts'
import { setContractNextBillingDate } from '../../platform/operations/subscription-contract-next-billing-date.ts'
import { type AnchorInput, editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { deliverySettingsOf } from '../delivery/service.ts'
import { CONTRACT_NOT_FOUND } from './edit-flow.ts'
import { type EditDeps, invalid, type Revisioned, refuseEnded } from './edit-rules.ts'
import { findDeliveryFields } from './edits-repo.ts'

export async function nextBillingDate(
  { flow, today }: EditDeps,
  shop: ShopRow,
  input: { contractId: string; nextBillingDate: string; isAdmin: boolean } & Revisioned,
): Promise<ContractEditResponse> {
  const date = input.nextBillingDate
  const problem = dateProblem(date)
  if (problem) throw invalid(problem)
  if (date < today()) throw invalid('次回請求日には今日以降の日付を指定してください')
  return flow.edit(shop, { ...input, label: '次回請求日の変更' }, async (ctx) => {
    refuseEnded(ctx, '次回請求日を変更')
    const from = ctx.current.nextBillingDate
    const at = billingInstantOn(date, from)
    await setContractNextBillingDate(ctx.client, ctx.gid, at)
    return {
      event: {
        type: 'next_billing_date_changed',
        payload: { from, to: at.toISOString(), isAdmin: input.isAdmin },
      },
    }
  })
}

/**
 * Moves the next order `cycles` cycles later on the contract's own schedule (the cycle after, as
 * billing computes it after a charge): a skip of the next delivery (1), or the date a pause of
 * N cycles resumes on. The history says which: `next_order_skipped` with the cycles.
 */
export async function skipCycles(
  { flow }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { cycles: number } & Revisioned,
): Promise<ContractEditResponse & { nextBillingDate: string }> {
  let next = ''
  const edited = await flow.edit(
    shop,
    { contractId, revision: input.revision, label: '次回のお届けのスキップ' },
    async (ctx) => {
      refuseEnded(ctx, 'スキップ')
      const from = ctx.current.nextBillingDate
      if (!from) throw invalid('次回のご注文が予定されていないため、スキップできません')
      let at = new Date(from)
      for (let i = 0; i < input.cycles; i++) at = scheduleAfter(ctx.current, at, shop.iana_timezone)
      next = at.toISOString()
      await setContractNextBillingDate(ctx.client, ctx.gid, at)
      return { event: { type: 'next_order_skipped', payload: { from, to: next, cycles: input.cycles } } }
    },
  )
  return { ...edited, nextBillingDate: next }
}

export async function getNextDeliveryDate(
  { opts }: EditDeps,
  shop: ShopRow,
  contractId: string,
): Promise<NextDeliveryDateResponse> {
  const row = await findDeliveryFields(opts.db, shop.id, contractId)
  if (!row) throw notFound(CONTRACT_NOT_FOUND)
  return {
    contractId,
    nextDeliveryDate: deliveryDateOf(row.custom_attributes ?? []),
    nextBillingDate: row.next_billing_date ? toZonedDate(row.next_billing_date) : null,
  }
}

export async function nextDeliveryDate(
  { flow, today }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { nextDeliveryDate: string | null; isAdmin: boolean } & Revisioned,
): Promise<ContractEditResponse> {
  const date = input.nextDeliveryDate
  if (date !== null) {
    const problem = dateProblem(date)
    if (problem) throw invalid(problem)
    if (date < today()) throw invalid('お届け予定日には今日以降の日付を指定してください')
  }
  return flow.edit(
    shop,
    { contractId, revision: input.revision, label: 'お届け予定日の変更' },
    async (ctx) => {
      refuseEnded(ctx, 'お届け予定日を変更')
      const billing = ctx.current.nextBillingDate ? toZonedDate(ctx.current.nextBillingDate) : null
      if (date !== null && billing !== null && date < billing) {
        throw invalid(`お届け予定日には次回請求日（${formatDateJa(billing)}）以降の日付を指定してください`)
      }
      const from = deliveryDateOf(ctx.current.customAttributes)
      if (from === date) return {}
      await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
        draft.update({
          customAttributes: withAttribute(ctx.current.customAttributes, DELIVERY_DATE_ATTRIBUTE, date),
        }),
      )
      return {
        event: {
          type: 'next_delivery_date_changed',
          payload: { from, to: date, isAdmin: input.isAdmin },
        },
      }
    },
  )
}

export async function deliveryTime(
  { flow, opts }: EditDeps,
  shop: ShopRow,
  contractId: string,
  input: { deliveryTime: DeliveryTime } & Revisioned,
): Promise<ContractEditResponse> {
  // 配送設定: only a slot the shop's carrier delivers in.
  const { carrier } = await deliverySettingsOf(opts.db, shop.id)
  if (!carrierOffers(carrier, input.deliveryTime)) {
    throw invalid(
      `${CARRIERS[carrier].name}では「${deliveryTimeLabel(input.deliveryTime)}」を指定できません（設定 › 配送設定）`,
    )
  }
  return flow.edit(shop, { contractId, revision: input.revision, label: '配送時間帯の変更' }, async (ctx) => {
    refuseEnded(ctx, '配送時間帯を変更')
    const label = input.deliveryTime === 'NONE' ? null : deliveryTimeLabel(input.deliveryTime)
    const attributes = withAttribute(ctx.current.customAttributes, DELIVERY_TIME_ATTRIBUTE, label)
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.update({ customAttributes: attributes }),
    )
    return { event: { type: 'delivery_time_changed', payload: { to: input.deliveryTime } } }
  })
}

export async function interval(
  { flow }: EditDeps,
  shop: ShopRow,
  input: {
    contractId: string
    interval: 'DAY' | 'WEEK' | 'MONTH'
    intervalCount: number
    anchors: AnchorInput[]
  } & Revisioned,
): Promise<ContractEditResponse> {
  return flow.edit(shop, { ...input, label: '請求間隔の変更' }, async (ctx) => {
    refuseEnded(ctx, '請求間隔を変更')
    const current = ctx.current.billingPolicy
    const anchors = input.anchors.map((a) => ({ type: a.type, day: a.day, month: a.month ?? null }))
    await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
      draft.update({
        billingPolicy: {
          interval: input.interval,
          intervalCount: input.intervalCount,
          minCycles: current.minCycles,
          maxCycles: current.maxCycles,
          anchors,
        },
        // Delivered as often as billed: the app's plans never prepay several deliveries.
        deliveryPolicy: { interval: input.interval, intervalCount: input.intervalCount, anchors },
      }),
    )
    return {
      event: {
        type: 'interval_changed',
        payload: {
          from: { interval: current.interval, intervalCount: current.intervalCount },
          to: { interval: input.interval, intervalCount: input.intervalCount, anchors },
        },
      },
    }
  })
}

/** Next billing date, next delivery date (お届け予定日), delivery time slot (配送時間帯), interval and anchors. */
export const scheduleEdits = {
  skipCycles,
  nextBillingDate,
  getNextDeliveryDate,
  nextDeliveryDate,
  deliveryTime,
  interval,
}
