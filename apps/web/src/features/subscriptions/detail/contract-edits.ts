import {
  type ApplyDiscountCodeRequest,
  type CreateOrderNowResponse,
  DELIVERY_TIME_SLOTS,
  type DeliveryAddress,
  type DeliveryAddressRequest,
  type DeliveryTimeRequest,
  type IntervalRequest,
  type ModifyPaymentMethodRequest,
  type NextBillingDateRequest,
  type NextDeliveryDateRequest,
  type NoteRequest,
  type OrderCountRequest,
  type SubscriptionDetail,
  ZApplyDiscountCodeRequest,
  ZDeliveryAddressRequest,
  ZDeliveryTimeRequest,
  ZIntervalRequest,
  ZModifyPaymentMethodRequest,
  ZNextBillingDateRequest,
  ZNextDeliveryDateRequest,
  ZNoteRequest,
  ZOrderCountRequest,
} from '@teiki/contract'
import { DELIVERY_TIME_LABELS, formatDateJa, prefectureCode, withPlatformDetail } from '@teiki/domain'
import { api } from '../../../app/api.ts'
import { checkDate } from './date-rules.ts'
import { japanDateInput, scheduleLabel } from './detail-format.ts'
import type { EditPlan, Planned } from './use-contract-edit.ts'

/**
 * Every contract edit of the detail page as a pure step: check the form with the request's zod
 * schema (first issue's Japanese message, no request when it fails), then a plan that sends it
 * with the revision the screen was built from. The modals only collect the fields.
 */

type Issue = { message: string; path: ReadonlyArray<PropertyKey> }
type Schema<T> = {
  safeParse: (input: unknown) => { success: true; data: T } | { success: false; error: { issues: Issue[] } }
}

type Parsed<T> = { ok: true; data: T } | { ok: false; error: string; field?: string }

/** Parses with a contract schema; on failure the first issue (and its innermost field name). */
export function parseWith<T>(schema: Schema<T>, input: unknown): Parsed<T> {
  const result = schema.safeParse(input)
  if (result.success) return { ok: true, data: result.data }
  const issue = result.error.issues[0]
  const last = issue?.path.at(-1)
  return {
    ok: false,
    error: issue?.message ?? '入力内容を確認してください',
    field: typeof last === 'string' ? last : undefined,
  }
}

export const planned = (plan: EditPlan): Planned => ({ ok: true, plan })
export const invalid = (error: string, field?: string): Planned => ({ ok: false, error, field })

/** Number text as merchants type it: full-width digits, `1,980`, `¥1980` all read as digits. */
export function numberText(text: string): string {
  return text.normalize('NFKC').replace(/[,\s¥]/g, '')
}

/** A whole number from a text field; NaN (the schema's 数値で指定 message) when not a number. */
export function toNumber(text: string): number {
  const plain = numberText(text)
  return plain === '' ? Number.NaN : Number(plain)
}

/** The `:id` path parameter of the contract's edit routes. */
export const idOf = (detail: SubscriptionDetail) => ({ id: detail.contractId })

// 契約情報 ---------------------------------------------------------------------------------

/** PUT /next-billing-date: a Japan-time calendar day, from `today` (Japan) on, as the server asks. */
export function planNextBillingDate(detail: SubscriptionDetail, date: string, today: string): Planned {
  const dateError = checkDate(date, '次回請求日', { day: today, reason: '今日' })
  if (dateError) return invalid(dateError, 'nextBillingDate')
  const input: NextBillingDateRequest = {
    contractId: detail.contractId,
    nextBillingDate: date,
    isAdmin: true,
    revision: detail.revision,
  }
  const parsed = parseWith(ZNextBillingDateRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  return planned({
    run: async () => {
      await api('PUT /next-billing-date', { body: parsed.data })
      return { message: `次回請求日を${formatDateJa(date)}に変更しました` }
    },
  })
}

/**
 * The first day a delivery can be set to: the next billing date (Japan time), or today when
 * that is earlier or unknown. The server refuses anything before it.
 */
export function earliestDeliveryDate(detail: SubscriptionDetail, today: string): string {
  const billing = japanDateInput(detail.nextBillingDate)
  return billing > today ? billing : today
}

/** PUT /subscriptions/:id/next-delivery-date; an empty date clears it. */
export function planNextDeliveryDate(detail: SubscriptionDetail, date: string, today: string): Planned {
  const value = date.trim() === '' ? null : date
  if (value !== null) {
    const earliest = earliestDeliveryDate(detail, today)
    const reason = earliest === today ? '今日' : '次回請求日'
    const dateError = checkDate(value, 'お届け予定日', { day: earliest, reason })
    if (dateError) return invalid(dateError, 'nextDeliveryDate')
  }
  const input: NextDeliveryDateRequest = { nextDeliveryDate: value, isAdmin: true, revision: detail.revision }
  const parsed = parseWith(ZNextDeliveryDateRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  return planned({
    run: async () => {
      await api('PUT /subscriptions/:id/next-delivery-date', { params: idOf(detail), body: parsed.data })
      return {
        message:
          value === null
            ? 'お届け予定日の指定を解除しました'
            : `お届け予定日を${formatDateJa(value)}に変更しました`,
      }
    },
  })
}

/** The label of a stored slot code; 指定なし for none, the code itself when unknown. */
export function deliveryTimeText(slot: string | null): string {
  if (slot === null || slot === '') return DELIVERY_TIME_LABELS.NONE
  return (DELIVERY_TIME_LABELS as Record<string, string>)[slot] ?? slot
}

export const DELIVERY_TIME_OPTIONS = DELIVERY_TIME_SLOTS.map((slot) => ({
  value: slot,
  label: DELIVERY_TIME_LABELS[slot],
}))

/** PUT /subscription-contracts/:id/specify-delivery-time; NONE clears the slot. */
export function planDeliveryTime(detail: SubscriptionDetail, slot: string): Planned {
  const parsed = parseWith(ZDeliveryTimeRequest, { deliveryTime: slot, revision: detail.revision })
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  const body: DeliveryTimeRequest = parsed.data
  return planned({
    run: async () => {
      await api('PUT /subscription-contracts/:id/specify-delivery-time', { params: idOf(detail), body })
      return {
        message:
          body.deliveryTime === 'NONE'
            ? '配送時間帯の指定を解除しました'
            : `配送時間帯を${deliveryTimeText(body.deliveryTime)}に変更しました`,
      }
    },
  })
}

export type IntervalForm = { interval: 'DAY' | 'WEEK' | 'MONTH'; intervalCount: string; anchorDay: string }

/** The form of the contract's current schedule (its first WEEKDAY / MONTHDAY anchor, if any). */
export function intervalForm(detail: SubscriptionDetail): IntervalForm {
  const interval = detail.interval === 'YEAR' ? 'MONTH' : detail.interval
  const anchor = detail.anchors.find((a) =>
    interval === 'WEEK' ? a.type === 'WEEKDAY' : interval === 'MONTH' ? a.type === 'MONTHDAY' : false,
  )
  return {
    interval,
    intervalCount: String(detail.interval === 'YEAR' ? detail.intervalCount * 12 : detail.intervalCount),
    anchorDay: anchor?.day ? String(anchor.day) : '',
  }
}

/** PUT /interval-and-interval-count: every n days / weeks (on a weekday) / months (on a day). */
export function planInterval(detail: SubscriptionDetail, form: IntervalForm): Planned {
  const anchors: IntervalRequest['anchors'] =
    form.interval === 'DAY' || form.anchorDay === ''
      ? []
      : [{ type: form.interval === 'WEEK' ? 'WEEKDAY' : 'MONTHDAY', day: toNumber(form.anchorDay) }]
  const input: IntervalRequest = {
    contractId: detail.contractId,
    interval: form.interval,
    intervalCount: toNumber(form.intervalCount),
    anchors,
    revision: detail.revision,
  }
  const parsed = parseWith(ZIntervalRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field === 'day' ? 'anchors' : parsed.field)
  return planned({
    run: async () => {
      await api('PUT /interval-and-interval-count', { body: parsed.data })
      return {
        message: `請求間隔を${scheduleLabel(
          parsed.data.interval,
          parsed.data.intervalCount,
          (parsed.data.anchors ?? []).map((a) => ({ type: a.type, day: a.day, month: null })),
        )}に変更しました`,
      }
    },
  })
}

/** PUT /subscription-contracts/:id/order-count: the merchant's correction (no revision). */
export function planOrderCount(detail: SubscriptionDetail, count: string): Planned {
  const input: OrderCountRequest = { count: toNumber(count) }
  const parsed = parseWith(ZOrderCountRequest, input)
  if (!parsed.ok) return invalid(parsed.error, 'count')
  return planned({
    run: async () => {
      const answer = await api('PUT /subscription-contracts/:id/order-count', {
        params: idOf(detail),
        body: parsed.data,
      })
      return { message: `注文回数を${answer?.count ?? parsed.data.count}回に変更しました` }
    },
  })
}

/** PUT /subscription-contracts/:id/note. */
export function planNote(detail: SubscriptionDetail, note: string): Planned {
  const input: NoteRequest = { note, revision: detail.revision }
  const parsed = parseWith(ZNoteRequest, input)
  if (!parsed.ok) return invalid(parsed.error, 'note')
  return planned({
    run: async () => {
      await api('PUT /subscription-contracts/:id/note', { params: idOf(detail), body: parsed.data })
      return { message: 'メモを保存しました' }
    },
  })
}

/** POST /create-order-now: bills now; the order exists when the charge is ready. */
export function planCreateOrderNow(detail: SubscriptionDetail): Planned {
  return planned({
    run: async () => {
      const answer = await api('POST /create-order-now', {
        body: { contractId: detail.contractId, revision: detail.revision },
      })
      return orderNowToast(answer)
    },
  })
}

/** The toast of a create-order-now answer. */
export function orderNowToast(answer: CreateOrderNowResponse): { message: string; error?: boolean } {
  // The answer carries the platform's message only: the code's Japanese is on 決済履歴 after the
  // reload; here the failure is said in Japanese with the platform's words as the detail.
  if (answer.errorMessage)
    return {
      message: withPlatformDetail({
        message: '注文を作成できませんでした：決済に失敗しました。',
        detail: answer.errorMessage,
      }),
      error: true,
    }
  if (answer.ready && answer.orderId) return { message: '注文を作成しました' }
  return { message: '決済を開始しました。注文は決済完了後に作成されます' }
}

// 配送先・決済方法 ---------------------------------------------------------------------------

/** The address form's fields: the request's address as typed (checked by the server). */
export type AddressForm = DeliveryAddress

/** The form prefilled from the contract's shipping address (empty when it has none). */
export function addressForm(method: SubscriptionDetail['deliveryMethod']): AddressForm {
  const a = method.kind === 'shipping' ? method.address : null
  return {
    lastName: a?.lastName ?? '',
    firstName: a?.firstName ?? '',
    zip: a?.zip ?? '',
    provinceCode: prefectureCode(a?.province),
    city: a?.city ?? '',
    address1: a?.address1 ?? '',
    address2: a?.address2 ?? '',
    phone: a?.phone ?? '',
  }
}

/** PUT /subscriptions/:id/delivery-address; problems name their field. */
export function planDeliveryAddress(detail: SubscriptionDetail, form: AddressForm): Planned {
  const input: DeliveryAddressRequest = {
    address: { ...form, zip: form.zip.normalize('NFKC'), phone: form.phone.normalize('NFKC') },
    revision: detail.revision,
  }
  const parsed = parseWith(ZDeliveryAddressRequest, input)
  if (!parsed.ok) return invalid(parsed.error, parsed.field)
  return planned({
    run: async () => {
      await api('PUT /subscriptions/:id/delivery-address', { params: idOf(detail), body: parsed.data })
      return { message: '配送先を変更しました' }
    },
  })
}

/** PUT /modify-payment-method: the contract charges another of the customer's methods. */
export function planPaymentMethod(detail: SubscriptionDetail, paymentMethodId: string): Planned {
  if (paymentMethodId === '') return invalid('決済方法を選択してください', 'paymentMethodId')
  const input: ModifyPaymentMethodRequest = {
    contractId: detail.contractId,
    paymentMethodId,
    revision: detail.revision,
  }
  const parsed = parseWith(ZModifyPaymentMethodRequest, input)
  if (!parsed.ok) return invalid(parsed.error, 'paymentMethodId')
  return planned({
    run: async () => {
      await api('PUT /modify-payment-method', { body: parsed.data })
      return { message: '決済方法を変更しました' }
    },
  })
}

/** POST …/payment-method-update-email: nothing on the contract changes, so no reload. */
export function planPaymentUpdateEmail(detail: SubscriptionDetail): Planned {
  return planned({
    reload: false,
    run: async () => {
      const data = await api('POST /subscription-contracts/:id/payment-method-update-email', {
        params: idOf(detail),
      })
      return {
        message: data?.sentTo
          ? `決済方法の更新メールを${data.sentTo}に送信しました`
          : '決済方法の更新メールを送信しました',
      }
    },
  })
}

// 割引 -------------------------------------------------------------------------------------

/** PUT /subscriptions/:id/discount-code/apply. */
export function planApplyDiscount(detail: SubscriptionDetail, code: string): Planned {
  const input: ApplyDiscountCodeRequest = { discountCode: code, revision: detail.revision }
  const parsed = parseWith(ZApplyDiscountCodeRequest, input)
  if (!parsed.ok) return invalid(parsed.error, 'discountCode')
  return planned({
    run: async () => {
      await api('PUT /subscriptions/:id/discount-code/apply', { params: idOf(detail), body: parsed.data })
      return { message: `割引コード「${parsed.data.discountCode}」を適用しました` }
    },
  })
}

/** DELETE /subscriptions/:id/discount-code/:code (the discount's id). */
export function planRemoveDiscount(
  detail: SubscriptionDetail,
  discount: Pick<SubscriptionDetail['discounts'][number], 'id' | 'title'>,
): Planned {
  return planned({
    run: async () => {
      await api('DELETE /subscriptions/:id/discount-code/:code', {
        params: { id: detail.contractId, code: discount.id || discount.title },
        query: { revision: detail.revision },
      })
      return { message: `割引「${discount.title || discount.id}」を削除しました` }
    },
  })
}
