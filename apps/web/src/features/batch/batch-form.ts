import type {
  BatchKind,
  BatchNextBillingDateUpdateRequest,
  BatchProductDeleteRequest,
  BatchProductUpdateRequest,
  VariantSummary,
} from '@teiki/contract'
import { dateProblem, isValidCalendarDate } from '@teiki/domain'

// The 一括更新 form as plain data: what the merchant chose, checked before anything is sent,
// and turned into the request body (start) and the query (preview) of its kind.

export type BatchForm = {
  kind: BatchKind
  from: VariantSummary | null
  to: VariantSummary | null
  /** Only this customer's contracts (swap and removal). */
  customerEmail: string
  dateFrom: string
  dateTo: string
  /** Where the result mail goes; empty: no mail. */
  notifyEmail: string
}

export const EMPTY_FORM: BatchForm = {
  kind: 'product-update',
  from: null,
  to: null,
  customerEmail: '',
  dateFrom: '',
  dateTo: '',
  notifyEmail: '',
}

export const KIND_LABELS: Record<BatchKind, string> = {
  'product-update': '商品の入れ替え',
  'product-delete': '商品の削除',
  'next-billing-date-update': '次回請求日の変更',
}

/** The body of one kind's start request (its shape tells the kind: batch-api.ts). */
export type BatchBody =
  | BatchProductUpdateRequest
  | BatchProductDeleteRequest
  | BatchNextBillingDateUpdateRequest

const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The request body of the form's kind, or the first problem (Japanese). */
export function batchRequest(
  form: BatchForm,
): { ok: true; body: BatchBody } | { ok: false; message: string } {
  const notify = form.notifyEmail.trim()
  const customer = form.customerEmail.trim()
  if (notify && !MAIL.test(notify))
    return { ok: false, message: '結果の送信先メールアドレスの形式が正しくありません' }
  if (customer && !MAIL.test(customer))
    return { ok: false, message: 'お客様のメールアドレスの形式が正しくありません' }
  const extra = { ...(notify ? { notifyEmail: notify } : {}) }
  const only = { ...(customer ? { email: customer } : {}) }
  if (form.kind === 'product-update') {
    if (!form.from) return { ok: false, message: '変更前の商品を選んでください' }
    if (!form.to) return { ok: false, message: '変更後の商品を選んでください' }
    if (form.from.id === form.to.id) return { ok: false, message: '変更前と変更後に同じ商品が選ばれています' }
    return { ok: true, body: { variantIdFrom: form.from.id, variantIdTo: form.to.id, ...only, ...extra } }
  }
  if (form.kind === 'product-delete') {
    if (!form.from) return { ok: false, message: '削除する商品を選んでください' }
    return { ok: true, body: { variantId: form.from.id, ...only, ...extra } }
  }
  if (!form.dateFrom) return { ok: false, message: '変更前の次回請求日を入力してください' }
  if (!form.dateTo) return { ok: false, message: '変更後の次回請求日を入力してください' }
  for (const [label, value] of [
    ['変更前の次回請求日', form.dateFrom],
    ['変更後の次回請求日', form.dateTo],
  ] as const) {
    if (!isValidCalendarDate(value)) return { ok: false, message: `${label}: ${dateProblem(value) ?? value}` }
  }
  if (form.dateFrom === form.dateTo)
    return { ok: false, message: '変更前と変更後に同じ日付が指定されています' }
  return { ok: true, body: { nextBillingDateFrom: form.dateFrom, nextBillingDateTo: form.dateTo, ...extra } }
}

/** The preview's query: the request without the result address. */
export function previewQuery<B extends BatchBody>(body: B): Omit<B, 'notifyEmail'> {
  const { notifyEmail: _ignored, ...query } = body
  return query
}
