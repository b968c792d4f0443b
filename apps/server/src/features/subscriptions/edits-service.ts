import type {
  AddLineRequest,
  ContractEditResponse,
  CreateOrderNowResponse,
  DeliveryAddress,
  DeliveryTime,
  DiscountCodesResponse,
  NextDeliveryDateResponse,
  OrderCountResponse,
  PaymentMethodsResponse,
  PaymentUpdateEmailResponse,
} from '@teiki/contract'
import {
  billingInstantOn,
  DELIVERY_DATE_ATTRIBUTE,
  DELIVERY_TIME_ATTRIBUTE,
  deliveryDateOf,
  deliveryTimeLabel,
  isValidCalendarDate,
  TERMINAL_STATUSES,
  toZonedDate,
  withAttribute,
} from '@teiki/domain'
import { createOrderNowAttempt } from '../../billing/order-now.ts'
import type { Db } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { idFromGid, lineIdOf, maybeIdFromGid, toGid } from '../../platform/gid.ts'
import { sendPaymentMethodUpdateEmail } from '../../platform/operations/customer-payment-method-send-update-email.ts'
import { fetchCustomerPaymentMethods } from '../../platform/operations/customer-payment-methods.ts'
import { fetchContractDiscounts } from '../../platform/operations/subscription-contract-discounts.ts'
import { setContractNextBillingDate } from '../../platform/operations/subscription-contract-next-billing-date.ts'
import type { PlatformContract } from '../../platform/operations/subscription-contracts-page.ts'
import { type AnchorInput, editContractThroughDraft } from '../../platform/operations/subscription-draft.ts'
import { appendContractEvent } from '../../sync/contracts-repo.ts'
import { billingAttemptRecord } from '../../sync/records.ts'
import type { ShopRow } from '../shops/repo.ts'
import { upsertBillingAttempt } from '../webhooks/repo.ts'
import {
  CONTRACT_NOT_FOUND,
  createEditFlow,
  type EditContext,
  platformError,
  STALE_CONTRACT,
} from './edit-flow.ts'
import { ORDER_COUNT_SQL } from './order-count.ts'
import { paymentInstrument } from './payment-instrument.ts'
import { requireChargeablePrice } from './price-input.ts'
import type { ShopClients } from './shop-client.ts'

export type ContractEditsOptions = {
  db: Db
  clients: ShopClients
  log?: { warn: (obj: unknown, msg: string) => void }
  /** Clock for "today" checks (tests fix it). */
  now?: () => Date
}

const LINE_NOT_FOUND = '指定された商品（明細）がこの契約に見つかりません'
const VARIANT_NOT_FOUND = '指定されたバリエーションが見つかりません'
/** The spec's error text for a failed line add (§8), kept verbatim beside the Japanese. */
export const ADD_LINE_FAILED = 'Failed to add line to subscription'

type Revisioned = { revision?: string | undefined }

/**
 * Every contract edit of spec §7 beside pause/resume/churn. Each goes through the edit flow
 * (404 → revision 409 → platform → mirror + history); the checks here are the ones the
 * platform would not make or would make with an English message.
 */
export function createContractEdits(opts: ContractEditsOptions) {
  const flow = createEditFlow(opts)
  const now = opts.now ?? (() => new Date())
  const today = () => toZonedDate(now())

  function refuseEnded(ctx: EditContext, what: string): void {
    if (TERMINAL_STATUSES.has(ctx.current.status)) {
      const state = ctx.current.status === 'CANCELLED' ? '解約済み' : '期限切れ'
      throw new AppError('CONFLICT', `${state}の契約は${what}できません`)
    }
  }

  function findLine(ctx: EditContext, lineId: string) {
    const line = ctx.current.lines.nodes.find((l) => lineIdOf(l.id) === lineId)
    if (!line) throw notFound(LINE_NOT_FOUND)
    return line
  }

  async function variantPrice(shop: ShopRow, variantId: string): Promise<string> {
    const { rows } = await opts.db.query<{ price: string | null }>(
      'select price::text from product_variants where shop_id = $1 and id = $2',
      [shop.id, variantId],
    )
    const row = rows[0]
    if (!row) throw notFound(VARIANT_NOT_FOUND)
    return row.price ?? '0'
  }

  async function getOrderCount(shop: ShopRow, contractId: string): Promise<OrderCountResponse> {
    const { rows } = await opts.db.query<{
      count: number
      order_count_set: number | null
      order_count_set_at: Date | null
    }>(
      `select ${ORDER_COUNT_SQL} as count, c.order_count_set, c.order_count_set_at
       from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
      [shop.id, contractId],
    )
    const row = rows[0]
    if (!row) throw notFound(CONTRACT_NOT_FOUND)
    return {
      contractId,
      count: row.count,
      setCount: row.order_count_set,
      setAt: row.order_count_set_at?.toISOString() ?? null,
    }
  }

  return {
    async nextBillingDate(
      shop: ShopRow,
      input: { contractId: string; nextBillingDate: string; isAdmin: boolean } & Revisioned,
    ): Promise<ContractEditResponse> {
      const date = input.nextBillingDate
      if (!isValidCalendarDate(date)) throw invalid('次回請求日が正しい日付ではありません')
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
    },

    async getNextDeliveryDate(shop: ShopRow, contractId: string): Promise<NextDeliveryDateResponse> {
      const { rows } = await opts.db.query<{
        custom_attributes: Array<{ key: string; value: string | null }>
        next_billing_date: Date | null
      }>(
        'select custom_attributes, next_billing_date from subscription_contracts where shop_id = $1 and id = $2',
        [shop.id, contractId],
      )
      const row = rows[0]
      if (!row) throw notFound(CONTRACT_NOT_FOUND)
      return {
        contractId,
        nextDeliveryDate: deliveryDateOf(row.custom_attributes ?? []),
        nextBillingDate: row.next_billing_date ? toZonedDate(row.next_billing_date) : null,
      }
    },

    async nextDeliveryDate(
      shop: ShopRow,
      contractId: string,
      input: { nextDeliveryDate: string | null; isAdmin: boolean } & Revisioned,
    ): Promise<ContractEditResponse> {
      const date = input.nextDeliveryDate
      if (date !== null) {
        if (!isValidCalendarDate(date)) throw invalid('お届け予定日が正しい日付ではありません')
        if (date < today()) throw invalid('お届け予定日には今日以降の日付を指定してください')
      }
      return flow.edit(
        shop,
        { contractId, revision: input.revision, label: 'お届け予定日の変更' },
        async (ctx) => {
          refuseEnded(ctx, 'お届け予定日を変更')
          const billing = ctx.current.nextBillingDate ? toZonedDate(ctx.current.nextBillingDate) : null
          if (date !== null && billing !== null && date < billing) {
            throw invalid(`お届け予定日は次回請求日（${billing}）以降の日付を指定してください`)
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
    },

    async deliveryTime(
      shop: ShopRow,
      contractId: string,
      input: { deliveryTime: DeliveryTime } & Revisioned,
    ): Promise<ContractEditResponse> {
      return flow.edit(
        shop,
        { contractId, revision: input.revision, label: '配送時間帯の変更' },
        async (ctx) => {
          refuseEnded(ctx, '配送時間帯を変更')
          const label = input.deliveryTime === 'NONE' ? null : deliveryTimeLabel(input.deliveryTime)
          const attributes = withAttribute(ctx.current.customAttributes, DELIVERY_TIME_ATTRIBUTE, label)
          await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
            draft.update({ customAttributes: attributes }),
          )
          return { event: { type: 'delivery_time_changed', payload: { to: input.deliveryTime } } }
        },
      )
    },

    async interval(
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
    },

    async createOrderNow(
      shop: ShopRow,
      input: { contractId: string } & Revisioned,
    ): Promise<CreateOrderNowResponse> {
      const label = '今すぐ注文の作成'
      const ctx = await flow.read(shop, input.contractId, label)
      if (input.revision !== undefined && input.revision !== String(ctx.current.revisionId)) {
        throw new AppError('CONFLICT', STALE_CONTRACT)
      }
      if (ctx.current.status !== 'ACTIVE') {
        throw new AppError('CONFLICT', '有効な契約のみ今すぐ注文を作成できます')
      }
      // Through the billing engine (issue 5): the contract's current cycle gets a
      // billing_cycles row, so the outcome advances the schedule like a scheduled charge and
      // the daily run does not charge that cycle again. The first attempt's key is still one
      // per contract revision (ADR 0008): a double click or a retry after an unknown outcome
      // returns the same attempt instead of charging twice.
      let started: Awaited<ReturnType<typeof createOrderNowAttempt>>
      try {
        started = await createOrderNowAttempt({
          db: opts.db,
          client: ctx.client,
          shop,
          contract: ctx.current,
          now: now(),
        })
      } catch (error) {
        throw platformError(error, label)
      }
      const { attempt } = started
      const edited = await flow.mirror(shop, ctx, {
        event: {
          type: 'order_now_requested',
          payload: {
            billingAttemptId: idFromGid(attempt.id),
            idempotencyKey: attempt.idempotencyKey,
            cycleDate: started.row.cycle_date,
          },
        },
        mirror: async (tx) => {
          await upsertBillingAttempt(tx, shop.id, billingAttemptRecord(attempt, input.contractId))
        },
      })
      return {
        ...edited,
        billingAttemptId: idFromGid(attempt.id),
        ready: attempt.ready,
        orderId: maybeIdFromGid(attempt.order?.id),
        errorMessage: attempt.errorMessage,
      }
    },

    async addLine(shop: ShopRow, contractId: string, input: AddLineRequest): Promise<ContractEditResponse> {
      const quantity = input.quantity ?? 1
      const label = '商品の追加'
      try {
        await requireChargeablePrice(opts.db, shop, contractId, input.price)
        const price = input.price ?? (await variantPrice(shop, input.variantId))
        return await flow.edit(shop, { contractId, revision: input.revision, label }, async (ctx) => {
          refuseEnded(ctx, '商品を追加')
          // The new line follows the contract's plan, as the lines already on it do.
          const planned = ctx.current.lines.nodes.find((l) => l.sellingPlanId)
          let lineId = ''
          await editContractThroughDraft(ctx.client, ctx.gid, async (draft) => {
            lineId = await draft.addLine({
              productVariantId: toGid('ProductVariant', input.variantId),
              quantity,
              currentPrice: price,
              sellingPlanId: planned?.sellingPlanId ?? null,
              sellingPlanName: planned?.sellingPlanName ?? null,
            })
          })
          return {
            event: {
              type: 'line_added',
              payload: { lineId: lineIdOf(lineId), variantId: input.variantId, quantity, price },
            },
          }
        })
      } catch (error) {
        // Spec §5/§8: any failed add reads "Failed to add line to subscription".
        if (error instanceof AppError) {
          throw new AppError(
            error.code,
            `商品を追加できませんでした（${ADD_LINE_FAILED}）: ${error.message}`,
            {
              cause: error,
            },
          )
        }
        throw error
      }
    },

    async removeLine(shop: ShopRow, contractId: string, lineId: string, revision?: string) {
      return flow.edit(shop, { contractId, revision, label: '商品の削除' }, async (ctx) => {
        refuseEnded(ctx, '商品を削除')
        const line = findLine(ctx, lineId)
        if (ctx.current.lines.nodes.length === 1) {
          throw new AppError(
            'CONFLICT',
            '契約の最後の商品は削除できません。契約を終了する場合は解約してください',
          )
        }
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.removeLine(line.id))
        return {
          event: {
            type: 'line_removed',
            payload: { lineId, variantId: maybeIdFromGid(line.variantId), quantity: line.quantity },
          },
        }
      })
    },

    async lineQuantity(
      shop: ShopRow,
      contractId: string,
      lineId: string,
      input: { quantity: number } & Revisioned,
    ) {
      return flow.edit(shop, { contractId, revision: input.revision, label: '数量の変更' }, async (ctx) => {
        refuseEnded(ctx, '数量を変更')
        const line = findLine(ctx, lineId)
        if (line.quantity === input.quantity) return {}
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
          draft.updateLine(line.id, { quantity: input.quantity }),
        )
        return {
          event: {
            type: 'line_quantity_changed',
            payload: { lineId, from: line.quantity, to: input.quantity },
          },
        }
      })
    },

    async priceManuallyChanged(
      shop: ShopRow,
      contractId: string,
      input: { lineId?: string | undefined; price?: string | undefined } & Revisioned,
    ): Promise<ContractEditResponse> {
      if (input.price !== undefined && input.lineId === undefined) {
        throw invalid('価格を変更する明細ID（lineId）を指定してください')
      }
      await requireChargeablePrice(opts.db, shop, contractId, input.price)
      const mark = {
        mirror: async (tx: { query: Db['query'] }) => {
          await tx.query(
            'update subscription_contracts set price_manually_changed_at = now() where shop_id = $1 and id = $2',
            [shop.id, contractId],
          )
        },
      }
      return flow.edit(shop, { contractId, revision: input.revision, label: '価格の変更' }, async (ctx) => {
        if (input.lineId === undefined || input.price === undefined) {
          if (input.lineId !== undefined) findLine(ctx, input.lineId)
          return {
            ...mark,
            event: { type: 'price_marked_manual', payload: { lineId: input.lineId ?? null } },
          }
        }
        refuseEnded(ctx, '価格を変更')
        const line = findLine(ctx, input.lineId)
        const price = input.price
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
          draft.updateLine(line.id, { currentPrice: price }),
        )
        return {
          ...mark,
          event: {
            type: 'line_price_changed',
            payload: { lineId: input.lineId, from: line.currentPrice.amount, to: price, manual: true },
          },
        }
      })
    },

    async swapVariant(
      shop: ShopRow,
      contractId: string,
      lineId: string,
      input: { variantId: string; keepPrice: boolean } & Revisioned,
    ): Promise<ContractEditResponse> {
      const price = await variantPrice(shop, input.variantId)
      return flow.edit(
        shop,
        { contractId, revision: input.revision, label: '商品の入れ替え' },
        async (ctx) => {
          refuseEnded(ctx, '商品を入れ替え')
          const line = findLine(ctx, lineId)
          await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
            draft.updateLine(line.id, {
              productVariantId: toGid('ProductVariant', input.variantId),
              ...(input.keepPrice ? {} : { currentPrice: price }),
            }),
          )
          return {
            event: {
              type: 'line_variant_swapped',
              payload: {
                lineId,
                from: maybeIdFromGid(line.variantId),
                to: input.variantId,
                keepPrice: input.keepPrice,
              },
            },
          }
        },
      )
    },

    async note(shop: ShopRow, contractId: string, input: { note: string } & Revisioned) {
      return flow.edit(shop, { contractId, revision: input.revision, label: 'メモの変更' }, async (ctx) => {
        if ((ctx.current.note ?? '') === input.note) return {}
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.update({ note: input.note }))
        return { event: { type: 'note_changed', payload: { length: input.note.length } } }
      })
    },

    getOrderCount,

    /** The order count is the app's own (reports read it): no platform call. */
    async setOrderCount(shop: ShopRow, contractId: string, count: number): Promise<OrderCountResponse> {
      const { rows } = await opts.db.query<{ previous: number }>(
        `with previous as (select ${ORDER_COUNT_SQL} as previous from subscription_contracts c
           where c.shop_id = $1 and c.id = $2 for update)
         update subscription_contracts c set order_count_set = $3, order_count_set_at = now()
         from previous where c.shop_id = $1 and c.id = $2
         returning previous.previous`,
        [shop.id, contractId, count],
      )
      const row = rows[0]
      if (!row) throw notFound(CONTRACT_NOT_FOUND)
      await appendContractEvent(opts.db, shop.id, 'app', {
        contractId,
        type: 'order_count_set',
        payload: { from: row.previous, to: count },
      })
      return getOrderCount(shop, contractId)
    },

    async deliveryAddress(
      shop: ShopRow,
      contractId: string,
      input: { address: DeliveryAddress } & Revisioned,
    ): Promise<ContractEditResponse> {
      const a = input.address
      const zip = a.zip.includes('-') ? a.zip : `${a.zip.slice(0, 3)}-${a.zip.slice(3)}`
      return flow.edit(shop, { contractId, revision: input.revision, label: '配送先の変更' }, async (ctx) => {
        refuseEnded(ctx, '配送先を変更')
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
          draft.update({
            deliveryMethod: {
              shipping: {
                address: {
                  lastName: a.lastName,
                  firstName: a.firstName,
                  zip,
                  provinceCode: a.provinceCode,
                  city: a.city,
                  address1: a.address1,
                  address2: a.address2,
                  phone: a.phone,
                  countryCode: 'JP',
                },
              },
            },
          }),
        )
        return { event: { type: 'delivery_address_changed', payload: { provinceCode: a.provinceCode, zip } } }
      })
    },

    async paymentMethods(shop: ShopRow, contractId: string): Promise<PaymentMethodsResponse> {
      const label = '決済方法の取得'
      const ctx = await flow.read(shop, contractId, label)
      const customerId = ctx.current.customer?.id
      if (!customerId) return { contractId, currentId: null, methods: [] }
      let methods: Awaited<ReturnType<typeof fetchCustomerPaymentMethods>>
      try {
        methods = await fetchCustomerPaymentMethods(ctx.client, customerId)
      } catch (error) {
        throw platformError(error, label)
      }
      const current = ctx.current.customerPaymentMethod as { id?: string } | null
      return {
        contractId,
        currentId: maybeIdFromGid(current?.id),
        methods: (methods ?? []).map((m) => ({
          id: idFromGid(m.id),
          instrument: paymentInstrument(m.instrument, now()),
          revoked: m.revokedAt !== null,
        })),
      }
    },

    async modifyPaymentMethod(
      shop: ShopRow,
      input: { contractId: string; paymentMethodId: string } & Revisioned,
    ): Promise<ContractEditResponse> {
      return flow.edit(shop, { ...input, label: '決済方法の変更' }, async (ctx) => {
        refuseEnded(ctx, '決済方法を変更')
        const from = maybeIdFromGid((ctx.current.customerPaymentMethod as { id?: string } | null)?.id)
        if (from === input.paymentMethodId) return {}
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
          draft.update({ paymentMethodId: toGid('CustomerPaymentMethod', input.paymentMethodId) }),
        )
        return { event: { type: 'payment_method_changed', payload: { from, to: input.paymentMethodId } } }
      })
    },

    async sendPaymentUpdateEmail(shop: ShopRow, contractId: string): Promise<PaymentUpdateEmailResponse> {
      const label = '決済方法の更新メールの送信'
      const ctx = await flow.read(shop, contractId, label)
      const method = ctx.current.customerPaymentMethod as { id?: string } | null
      if (!method?.id)
        throw new AppError(
          'CONFLICT',
          'この契約には決済方法が登録されていないため、更新メールを送信できません',
        )
      let customer: Awaited<ReturnType<typeof sendPaymentMethodUpdateEmail>>
      try {
        customer = await sendPaymentMethodUpdateEmail(ctx.client, method.id)
      } catch (error) {
        throw platformError(error, label)
      }
      await appendContractEvent(opts.db, shop.id, 'app', {
        contractId,
        type: 'payment_update_email_sent',
        payload: { paymentMethodId: idFromGid(method.id) },
      })
      return { contractId, sentTo: customer?.email ?? null }
    },

    async discountCodes(shop: ShopRow, contractId: string): Promise<DiscountCodesResponse> {
      const label = '割引の取得'
      const ctx = await flow.read(shop, contractId, label)
      let discounts: Awaited<ReturnType<typeof fetchContractDiscounts>>
      try {
        discounts = await fetchContractDiscounts(ctx.client, ctx.gid)
      } catch (error) {
        throw platformError(error, label)
      }
      return {
        contractId,
        discounts: (discounts ?? []).map((d) => ({
          id: idFromGid(d.id),
          title: d.title ?? '',
          usageCount: d.usageCount,
          recurringCycleLimit: d.recurringCycleLimit,
          targetType: d.targetType,
        })),
      }
    },

    async applyDiscountCode(shop: ShopRow, contractId: string, input: { discountCode: string } & Revisioned) {
      return flow.edit(
        shop,
        { contractId, revision: input.revision, label: `割引コード「${input.discountCode}」の適用` },
        async (ctx) => {
          refuseEnded(ctx, '割引コードを適用')
          await editContractThroughDraft(ctx.client, ctx.gid, (draft) =>
            draft.applyDiscountCode(input.discountCode),
          )
          return { event: { type: 'discount_applied', payload: { code: input.discountCode } } }
        },
      )
    },

    async removeDiscount(shop: ShopRow, contractId: string, code: string, revision?: string) {
      return flow.edit(shop, { contractId, revision, label: `割引「${code}」の削除` }, async (ctx) => {
        const discounts = (await fetchContractDiscounts(ctx.client, ctx.gid)) ?? []
        const target = discounts.find((d) => idFromGid(d.id) === code || d.title === code)
        if (!target) throw notFound(`割引「${code}」はこの契約に適用されていません`)
        await editContractThroughDraft(ctx.client, ctx.gid, (draft) => draft.removeDiscount(target.id))
        return {
          event: { type: 'discount_removed', payload: { id: idFromGid(target.id), title: target.title } },
        }
      })
    },
  }
}

export type ContractEdits = ReturnType<typeof createContractEdits>

function invalid(message: string): AppError {
  return new AppError('INVALID_INPUT', message)
}

export type { PlatformContract }
