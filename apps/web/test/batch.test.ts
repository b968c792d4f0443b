import type { VariantSummary } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { type BatchForm, batchRequest, EMPTY_FORM, previewQuery } from '../src/features/batch/batch-form.ts'

const variant = (id: string): VariantSummary => ({
  id,
  productId: '1',
  productTitle: '北海道グラノーラ',
  title: id === '11' ? '500g' : '1kg',
  sku: null,
  price: '1580',
  imageUrl: null,
})
const form = (patch: Partial<BatchForm>): BatchForm => ({ ...EMPTY_FORM, ...patch })

describe('batchRequest (一括更新 form → request body)', () => {
  it.each<[string, Partial<BatchForm>, string]>([
    ['swap without the old variant', {}, '変更前の商品を選んでください'],
    ['swap without the new variant', { from: variant('11') }, '変更後の商品を選んでください'],
    [
      'swap to the same variant',
      { from: variant('11'), to: variant('11') },
      '変更前と変更後に同じ商品が選ばれています',
    ],
    ['removal without a variant', { kind: 'product-delete' }, '削除する商品を選んでください'],
    [
      'date move without the from-day',
      { kind: 'next-billing-date-update', dateTo: '2027-01-05' },
      '変更前の次回請求日を入力してください',
    ],
    [
      'date move to the same day',
      { kind: 'next-billing-date-update', dateFrom: '2027-01-05', dateTo: '2027-01-05' },
      '変更前と変更後に同じ日付が指定されています',
    ],
    [
      'a malformed result address',
      { from: variant('11'), to: variant('22'), notifyEmail: 'nope' },
      '結果の送信先メールアドレスの形式が正しくありません',
    ],
  ])('%s: %s', (_name, patch, message) => {
    expect(batchRequest(form(patch))).toEqual({ ok: false, message })
  })

  it('builds each kind with only the fields filled (addresses trimmed)', () => {
    expect(
      batchRequest(form({ from: variant('11'), to: variant('22'), notifyEmail: ' a@example.jp ' })),
    ).toEqual({
      ok: true,
      body: { variantIdFrom: '11', variantIdTo: '22', notifyEmail: 'a@example.jp' },
    })
    expect(
      batchRequest(form({ kind: 'product-delete', from: variant('11'), customerEmail: 'c@example.jp' })),
    ).toEqual({
      ok: true,
      body: { variantId: '11', email: 'c@example.jp' },
    })
    expect(
      batchRequest(
        form({
          kind: 'next-billing-date-update',
          dateFrom: '2026-12-31',
          dateTo: '2027-01-04',
          customerEmail: 'x@example.jp',
        }),
      ),
    ).toEqual({ ok: true, body: { nextBillingDateFrom: '2026-12-31', nextBillingDateTo: '2027-01-04' } })
  })

  it('the preview asks with the same fields but the result address', () => {
    expect(previewQuery({ variantId: '11', email: 'c@example.jp', notifyEmail: 'a@example.jp' })).toEqual({
      variantId: '11',
      email: 'c@example.jp',
    })
  })
})
