import type { SubscriptionDetail } from '@teiki/contract'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  actionRequest,
  loadCancellationReasons,
  runContractAction,
} from '../src/features/subscriptions/detail/contract-actions.ts'
import {
  addressForm,
  deliveryTimeText,
  earliestDeliveryDate,
  intervalForm,
  planCreateOrderNow,
  planDeliveryAddress,
  planDeliveryTime,
  planInterval,
  planNextBillingDate,
  planNextDeliveryDate,
  planNote,
  planOrderCount,
  planPaymentMethod,
  planPaymentUpdateEmail,
  planRemoveDiscount,
} from '../src/features/subscriptions/detail/contract-edits.ts'
import {
  ADD_LINE_FAILED,
  planAddLine,
  planLineQuantity,
  planRemoveLine,
  planSwapVariant,
} from '../src/features/subscriptions/detail/line-edits.ts'
import { type Planned, runContractEdit } from '../src/features/subscriptions/detail/use-contract-edit.ts'
import { offeredVariants, type VariantSummary } from '../src/features/subscriptions/detail/variant-search.ts'
import { detail } from './support/detail-fixture.ts'
import { failure, json, mockFetch } from './support/fetch-mock.ts'

/** Today in Japan for the date checks: two days before the contract's next billing date. */
const TODAY = '2026-11-20'
const line = detail.lines[0] as SubscriptionDetail['lines'][number]

const variant: VariantSummary = {
  id: '900',
  productId: '90',
  productTitle: 'ドリップバッグ',
  title: '10個入り',
  sku: 'DB-10',
  price: '1200',
  imageUrl: null,
}

const edited = { contractId: '42', revision: '8', updatedAt: '2026-11-01T00:00:00Z' }

const http = mockFetch()
const calls = http.calls

const answer = http.answer

const ui = () => ({ showToast: vi.fn(), reload: vi.fn() })

/** Runs a plan that must have passed the client checks. */
async function run(planned: Planned, target = ui()) {
  if (!planned.ok) throw new Error(`unexpected client-side error: ${planned.error}`)
  const outcome = await runContractEdit(target, planned.plan)
  return { outcome, ...target }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('next billing date', () => {
  it('PUTs the Japan date with isAdmin and the revision, then toasts and reloads', async () => {
    answer(json(200, edited))
    const { outcome, showToast, reload } = await run(planNextBillingDate(detail, '2026-12-01', TODAY))
    expect(outcome).toBe('done')
    expect(calls()).toEqual([
      expect.objectContaining({
        url: '/app-admin/next-billing-date',
        method: 'PUT',
        body: { contractId: '42', nextBillingDate: '2026-12-01', isAdmin: true, revision: '7' },
      }),
    ])
    expect(showToast).toHaveBeenCalledWith('次回請求日を2026年12月1日に変更しました', undefined)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('a 409 shows the server message as an error and reloads the detail', async () => {
    const message = '他の操作で契約が変更されました。最新の内容を確認してください'
    answer(failure(409, 'CONFLICT', message))
    const { outcome, showToast, reload } = await run(planNextBillingDate(detail, '2026-12-01', TODAY))
    expect(outcome).toBe('conflict')
    expect(showToast).toHaveBeenCalledWith(message, { error: true })
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('another failure shows the message and keeps the form (no reload)', async () => {
    answer(failure(422, 'PLATFORM_USER_ERROR', '次回請求日は過去の日付にできません'))
    const { outcome, showToast, reload } = await run(planNextBillingDate(detail, '2026-12-01', TODAY))
    expect(outcome).toBe('failed')
    expect(showToast).toHaveBeenCalledWith('次回請求日は過去の日付にできません', { error: true })
    expect(reload).not.toHaveBeenCalled()
  })

  it('an empty or impossible date never reaches the server', () => {
    expect(planNextBillingDate(detail, '', TODAY)).toMatchObject({
      ok: false,
      error: '次回請求日を入力してください',
    })
    // The date field hands over what did not read as a day as typed: a day that does not
    // exist is named (issue 22), anything else is told the format.
    for (const [typed, error] of [
      ['2026-02-30', '2026年2月30日は存在しない日付です'],
      ['2026/13/45', '2026年13月45日は存在しない日付です'],
      ['来週', '次回請求日は「2027年1月15日」のように入力してください'],
    ]) {
      expect(planNextBillingDate(detail, typed!, TODAY)).toMatchObject({ ok: false, error })
    }
    // The server refuses past days, and says so as it does (issue 22: a past day was told the format).
    for (const past of ['2026-11-19', '2020-01-01']) {
      expect(planNextBillingDate(detail, past, TODAY)).toMatchObject({
        ok: false,
        error: '次回請求日には今日以降の日付を指定してください',
      })
    }
    expect(planNextBillingDate(detail, TODAY, TODAY).ok).toBe(true)
    expect(http.fetch).not.toHaveBeenCalled()
  })
})

describe('delivery date and time', () => {
  it('sets and clears the next delivery date', async () => {
    answer(json(200, edited), json(200, edited))
    await run(planNextDeliveryDate(detail, '2026-11-25', TODAY))
    const cleared = await run(planNextDeliveryDate(detail, '', TODAY))
    expect(calls().map(({ url, method, body }) => ({ url, method, body }))).toEqual([
      {
        url: '/app-admin/subscriptions/42/next-delivery-date',
        method: 'PUT',
        body: { nextDeliveryDate: '2026-11-25', isAdmin: true, revision: '7' },
      },
      {
        url: '/app-admin/subscriptions/42/next-delivery-date',
        method: 'PUT',
        body: { nextDeliveryDate: null, isAdmin: true, revision: '7' },
      },
    ])
    expect(cleared.showToast).toHaveBeenCalledWith('お届け予定日の指定を解除しました', undefined)
  })

  it('offers no day the server refuses: from the next billing date (Japan time), never the past', () => {
    // 2026-11-21T15:30Z is 2026年11月22日 in Japan.
    expect(earliestDeliveryDate(detail, TODAY)).toBe('2026-11-22')
    expect(earliestDeliveryDate(detail, '2026-12-01')).toBe('2026-12-01') // billing date passed
    expect(earliestDeliveryDate({ ...detail, nextBillingDate: null }, TODAY)).toBe(TODAY)
    expect(planNextDeliveryDate(detail, '2026-11-21', TODAY)).toMatchObject({
      ok: false,
      error: 'お届け予定日には次回請求日（2026年11月22日）以降の日付を指定してください',
    })
    expect(planNextDeliveryDate(detail, '2026-11-30', '2026-12-01')).toMatchObject({
      ok: false,
      error: 'お届け予定日には今日以降の日付を指定してください',
    })
    expect(planNextDeliveryDate(detail, '2026-11-22', TODAY).ok).toBe(true)
  })

  it('sends a slot code and names it in Japanese', async () => {
    answer(json(200, edited))
    const { showToast } = await run(planDeliveryTime(detail, '14-16'))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/subscription-contracts/42/specify-delivery-time',
      method: 'PUT',
      body: { deliveryTime: '14-16', revision: '7' },
    })
    expect(showToast).toHaveBeenCalledWith('配送時間帯を14時〜16時に変更しました', undefined)
    expect(planDeliveryTime(detail, '9-12').ok).toBe(false)
    expect(deliveryTimeText(null)).toBe('指定なし')
    expect(deliveryTimeText('AM')).toBe('午前中')
  })
})

describe('interval', () => {
  it('sends a weekday anchor for weekly schedules', async () => {
    answer(json(200, edited))
    const { showToast } = await run(
      planInterval(detail, { interval: 'WEEK', intervalCount: '２', anchorDay: '1' }),
    )
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/interval-and-interval-count',
      method: 'PUT',
      body: {
        contractId: '42',
        interval: 'WEEK',
        intervalCount: 2,
        anchors: [{ type: 'WEEKDAY', day: 1 }],
        revision: '7',
      },
    })
    expect(showToast).toHaveBeenCalledWith('請求間隔を2週間ごと（月曜日）に変更しました', undefined)
  })

  it('follows the schema: 1..52, no anchor on daily schedules', () => {
    expect(planInterval(detail, { interval: 'MONTH', intervalCount: '53', anchorDay: '' })).toMatchObject({
      ok: false,
      error: '間隔は52以下で指定してください',
    })
    expect(planInterval(detail, { interval: 'MONTH', intervalCount: '', anchorDay: '' })).toMatchObject({
      ok: false,
      error: '間隔を数値で指定してください',
    })
    // A daily schedule drops the anchor the form may still hold.
    const daily = planInterval(detail, { interval: 'DAY', intervalCount: '3', anchorDay: '5' })
    expect(daily.ok).toBe(true)
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('prefills from the contract, yearly as 12 months', () => {
    expect(
      intervalForm({
        ...detail,
        interval: 'WEEK',
        intervalCount: 2,
        anchors: [{ type: 'WEEKDAY', day: 5, month: null, cutoffDay: null }],
      }),
    ).toEqual({ interval: 'WEEK', intervalCount: '2', anchorDay: '5' })
    expect(intervalForm({ ...detail, interval: 'YEAR', intervalCount: 1 })).toEqual({
      interval: 'MONTH',
      intervalCount: '12',
      anchorDay: '',
    })
  })
})

describe('order count, note, create order now', () => {
  it('order count is PUT without a revision', async () => {
    answer(json(200, { contractId: '42', count: 12, setCount: 12, setAt: '2026-11-01T00:00:00Z' }))
    const { showToast } = await run(planOrderCount(detail, '12'))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/subscription-contracts/42/order-count',
      method: 'PUT',
      body: { count: 12 },
    })
    expect(showToast).toHaveBeenCalledWith('注文回数を12回に変更しました', undefined)
    expect(planOrderCount(detail, '-1')).toMatchObject({
      ok: false,
      error: '購入回数は0以上で指定してください',
    })
  })

  it('note', async () => {
    answer(json(200, edited))
    await run(planNote(detail, '玄関前に置き配'))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/subscription-contracts/42/note',
      method: 'PUT',
      body: { note: '玄関前に置き配', revision: '7' },
    })
    expect(planNote(detail, 'あ'.repeat(5001))).toMatchObject({
      ok: false,
      error: 'メモは5000文字以内で入力してください',
    })
  })

  it('create order now: order created, still charging, or failed', async () => {
    const base = { ...edited, billingAttemptId: '600' }
    answer(
      json(200, { ...base, ready: true, orderId: '700', errorMessage: null }),
      json(200, { ...base, ready: false, orderId: null, errorMessage: null }),
      json(200, { ...base, ready: true, orderId: null, errorMessage: 'Your card has expired.' }),
    )
    const created = await run(planCreateOrderNow(detail))
    const pending = await run(planCreateOrderNow(detail))
    const failed = await run(planCreateOrderNow(detail))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/create-order-now',
      method: 'POST',
      body: { contractId: '42', revision: '7' },
    })
    expect(created.showToast).toHaveBeenCalledWith('注文を作成しました', undefined)
    expect(pending.showToast).toHaveBeenCalledWith(
      '決済を開始しました。注文は決済完了後に作成されます',
      undefined,
    )
    expect(failed.showToast).toHaveBeenCalledWith(
      // The platform's English only on the 詳細 line.
      '注文を作成できませんでした：決済に失敗しました。\n詳細: Your card has expired.',
      {
        error: true,
      },
    )
    expect(failed.reload).toHaveBeenCalledTimes(1)
  })
})

describe('lines', () => {
  it('adding a line fails on any answer but 200, with the server message', async () => {
    answer(failure(422, 'PLATFORM_USER_ERROR', 'この商品は販売されていません'))
    const rejected = await run(planAddLine(detail, variant, { quantity: '1', price: '' }))
    expect(rejected.outcome).toBe('failed')
    expect(rejected.showToast).toHaveBeenCalledWith(`${ADD_LINE_FAILED}：この商品は販売されていません`, {
      error: true,
    })
    expect(rejected.reload).not.toHaveBeenCalled()

    answer(json(201, edited))
    const created = await run(planAddLine(detail, variant, { quantity: '1', price: '' }))
    expect(created.outcome).toBe('failed')
    const [message, options] = created.showToast.mock.calls[0] ?? []
    expect(message).toMatch(/^商品を追加できませんでした：/)
    expect(options).toEqual({ error: true })
  })

  it('adds a line with quantity, an optional price and the revision', async () => {
    answer(json(200, edited), json(200, edited))
    const added = await run(planAddLine(detail, variant, { quantity: '2', price: '' }))
    await run(
      planAddLine(
        detail,
        { ...variant, id: 'gid://shopify/ProductVariant/901' },
        { quantity: '1', price: '¥1,500' },
      ),
    )
    expect(added.outcome).toBe('done')
    expect(added.showToast).toHaveBeenCalledWith('「ドリップバッグ / 10個入り」を追加しました', undefined)
    expect(added.reload).toHaveBeenCalledTimes(1)
    expect(calls().map(({ url, method, body }) => ({ url, method, body }))).toEqual([
      {
        url: '/app-admin/subscriptions/42/lines',
        method: 'POST',
        body: { variantId: '900', quantity: 2, revision: '7' },
      },
      {
        url: '/app-admin/subscriptions/42/lines',
        method: 'POST',
        body: { variantId: '901', quantity: 1, price: '1500', revision: '7' },
      },
    ])
  })

  it('no variant or a bad quantity is caught on the client', () => {
    expect(planAddLine(detail, null, { quantity: '1', price: '' })).toMatchObject({
      ok: false,
      field: 'variantId',
    })
    expect(planAddLine(detail, variant, { quantity: '0', price: '' })).toMatchObject({
      ok: false,
      error: '数量は1以上で指定してください',
      field: 'quantity',
    })
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('quantity then manual price, the second call with the revision the first answered', async () => {
    answer(json(200, { ...edited, revision: '8' }), json(200, { ...edited, revision: '9' }))
    const { outcome, showToast, reload } = await run(
      planLineQuantity(detail, line, { quantity: '3', manualPrice: true, price: '1500' }),
    )
    expect(outcome).toBe('done')
    expect(calls().map(({ url, method, body }) => ({ url, method, body }))).toEqual([
      {
        url: '/app-admin/subscriptions/42/line-1/quantity',
        method: 'PUT',
        body: { quantity: 3, revision: '7' },
      },
      {
        url: '/app-admin/subscription-contracts/42/price-manually-changed',
        method: 'POST',
        body: { lineId: 'line-1', price: '1500', revision: '8' },
      },
    ])
    expect(showToast).toHaveBeenCalledWith('「コーヒー豆」の数量と価格を変更しました', undefined)
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('quantity alone when the price box is not ticked', async () => {
    answer(json(200, edited))
    await run(planLineQuantity(detail, line, { quantity: '4', manualPrice: false, price: '1500' }))
    expect(calls()).toHaveLength(1)
    expect(calls()[0]).toMatchObject({ method: 'PUT', body: { quantity: 4, revision: '7' } })
  })

  it('a failed price step after the quantity changed says so and reloads', async () => {
    answer(json(200, edited), failure(422, 'PLATFORM_USER_ERROR', '価格を変更できません'))
    const { outcome, showToast, reload } = await run(
      planLineQuantity(detail, line, { quantity: '3', manualPrice: true, price: '1500' }),
    )
    expect(outcome).toBe('done')
    expect(showToast).toHaveBeenCalledWith(
      '数量は変更しましたが、価格を変更できませんでした：価格を変更できません',
      {
        error: true,
      },
    )
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('a ticked price box needs a valid price', () => {
    expect(planLineQuantity(detail, line, { quantity: '3', manualPrice: true, price: '' })).toMatchObject({
      ok: false,
      field: 'price',
    })
    expect(planLineQuantity(detail, line, { quantity: '3', manualPrice: true, price: '-5' })).toMatchObject({
      ok: false,
      error: '価格は0以上の数値で指定してください（例: 1980）',
    })
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('a JPY price is whole yen, at the field, before anything is sent (issue 12)', () => {
    const whole = '価格は小数点なしの整数で入力してください（JPY、例: 1980）'
    expect(planLineQuantity(detail, line, { quantity: '3', manualPrice: true, price: '1980.5' })).toEqual({
      ok: false,
      error: whole,
      field: 'price',
    })
    expect(planAddLine(detail, variant, { quantity: '1', price: '1,980.5' })).toEqual({
      ok: false,
      error: whole,
      field: 'price',
    })
    expect(planAddLine(detail, variant, { quantity: '1', price: '1980' })).toMatchObject({ ok: true })
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('never swaps a line to the variant it already has', () => {
    // The line holds variant 11; the search may answer it as a GID or a plain id.
    const same = { ...variant, id: 'gid://shopify/ProductVariant/11' }
    expect(planSwapVariant(detail, line, same, false)).toMatchObject({
      ok: false,
      error: '現在と同じ商品です。別の商品を選択してください',
      field: 'variantId',
    })
    expect(offeredVariants([same, variant, { ...variant, id: '11' }], [line.variantId])).toEqual([variant])
    expect(offeredVariants([same, variant], [null])).toEqual([same, variant])
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('swaps the variant and removes a line with the revision', async () => {
    answer(json(200, edited), new Response(null, { status: 204 }))
    await run(planSwapVariant(detail, line, variant, true))
    const removed = await run(planRemoveLine(detail, line))
    expect(removed.outcome).toBe('done')
    expect(calls().map(({ url, method, body }) => ({ url, method, body }))).toEqual([
      {
        url: '/app-admin/subscriptions/42/line-1/product-variant',
        method: 'PUT',
        body: { variantId: '900', keepPrice: true, revision: '7' },
      },
      { url: '/app-admin/subscriptions/42/lines/line-1?revision=7', method: 'DELETE', body: undefined },
    ])
  })
})

describe('address', () => {
  it('a bad zip is stopped on the client with the Japanese message', () => {
    const planned = planDeliveryAddress(detail, { ...addressForm(detail.deliveryMethod), zip: '15-0001' })
    expect(planned).toEqual({
      ok: false,
      error: '郵便番号は7桁の数字（例: 150-0001）で入力してください',
      field: 'zip',
    })
    expect(http.fetch).not.toHaveBeenCalled()
  })

  it('prefills from the shipping address and sends the ISO prefecture code', async () => {
    const form = addressForm(detail.deliveryMethod)
    expect(form).toEqual({
      lastName: '山田',
      firstName: '太郎',
      zip: '150-0001',
      provinceCode: 'JP-13',
      city: '渋谷区',
      address1: '神宮前1-2-3',
      address2: '',
      phone: '+819012345678',
    })
    answer(json(200, edited))
    await run(planDeliveryAddress(detail, { ...form, zip: '１５００００２', address2: ' 青山ビル101 ' }))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/subscriptions/42/delivery-address',
      method: 'PUT',
      body: { address: { ...form, zip: '1500002', address2: '青山ビル101' }, revision: '7' },
    })
  })

  it('missing prefecture and last name are named', () => {
    const form = addressForm(detail.deliveryMethod)
    expect(planDeliveryAddress(detail, { ...form, provinceCode: '' })).toMatchObject({
      ok: false,
      error: '都道府県を選択してください',
      field: 'provinceCode',
    })
    expect(planDeliveryAddress(detail, { ...form, lastName: ' ' })).toMatchObject({
      ok: false,
      error: '姓を入力してください',
      field: 'lastName',
    })
  })
})

describe('payment method and discounts', () => {
  it('modifies the payment method with the revision', async () => {
    answer(json(200, edited))
    await run(planPaymentMethod(detail, '501'))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/modify-payment-method',
      method: 'PUT',
      body: { contractId: '42', paymentMethodId: '501', revision: '7' },
    })
    expect(planPaymentMethod(detail, '').ok).toBe(false)
  })

  it('the update e-mail is a bodiless POST, names the address and does not reload', async () => {
    answer(json(200, { contractId: '42', sentTo: 'taro@example.jp' }))
    const { showToast, reload } = await run(planPaymentUpdateEmail(detail))
    const [call] = calls()
    expect(call).toMatchObject({
      url: '/app-admin/subscription-contracts/42/payment-method-update-email',
      method: 'POST',
      body: undefined,
    })
    expect(call?.headers['Content-Type']).toBeUndefined()
    expect(showToast).toHaveBeenCalledWith('決済方法の更新メールをtaro@example.jpに送信しました', undefined)
    expect(reload).not.toHaveBeenCalled()
  })

  it('removes a discount by id with the revision in the query', async () => {
    answer(json(200, edited))
    await run(planRemoveDiscount(detail, { id: '31', title: 'WELCOME10' }))
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/subscriptions/42/discount-code/31?revision=7',
      method: 'DELETE',
    })
  })
})

describe('pause / resume / churn', () => {
  it('churn sends the chosen reason id, the trimmed text and the revision', async () => {
    answer(json(200, { contractId: '42', status: 'CANCELLED', updatedAt: '2026-11-01T00:00:00Z' }))
    const request = actionRequest(detail, 'churn', { reasonId: '3', reason: '  価格が高い  ' })
    if (!request.ok) throw new Error(request.error)
    const target = ui()
    expect(await runContractAction(target, request.body, 'churn')).toBe(true)
    expect(calls()[0]).toMatchObject({
      url: '/app-admin/churn',
      method: 'POST',
      body: { contractId: '42', customerId: '77', revision: '7', reasonId: '3', reason: '価格が高い' },
    })
    expect(target.showToast).toHaveBeenCalledWith('契約を解約しました')
    expect(target.reload).toHaveBeenCalledTimes(1)
  })

  it('pause sends the revision and no reason; an empty churn form sends neither field', () => {
    const pause = actionRequest(detail, 'pause', { reasonId: '3', reason: 'x' })
    expect(pause).toEqual({ ok: true, body: { contractId: '42', customerId: '77', revision: '7' } })
    expect(actionRequest(detail, 'churn')).toEqual(pause)
    expect(actionRequest(detail, 'churn', { reasonId: '', reason: 'あ'.repeat(501) })).toEqual({
      ok: false,
      error: '解約理由は500文字以内で入力してください',
    })
  })

  it('a 409 on an action is shown and the detail reloaded', async () => {
    answer(failure(409, 'CONFLICT', '契約はすでに一時停止されています'))
    const request = actionRequest(detail, 'pause')
    if (!request.ok) throw new Error(request.error)
    const target = ui()
    expect(await runContractAction(target, request.body, 'pause')).toBe(false)
    expect(target.showToast).toHaveBeenCalledWith('契約はすでに一時停止されています', { error: true })
    expect(target.reload).toHaveBeenCalledTimes(1)
  })

  it("the shop's reasons in their order; none when the endpoint fails", async () => {
    answer(
      json(200, {
        reasons: [
          { id: '12', reason: '量が多い', position: 2 },
          { id: '11', reason: '届くのが遅い', position: 1 },
          { id: '3', reason: '価格が高い', position: 1 },
        ],
      }),
      failure(404, 'NOT_FOUND', 'not found'),
    )
    expect(await loadCancellationReasons()).toEqual([
      { id: '3', reason: '価格が高い', position: 1 },
      { id: '11', reason: '届くのが遅い', position: 1 },
      { id: '12', reason: '量が多い', position: 2 },
    ])
    expect(await loadCancellationReasons()).toEqual([])
    expect(calls()[0]?.url).toBe('/app-admin/cancellation-reasons')
  })
})
