import {
  ZAddLineRequest,
  ZApplyDiscountCodeRequest,
  ZContractEditResponse,
  ZContractIdParam,
  ZContractLineParams,
  ZCreateOrderNowRequest,
  ZCreateOrderNowResponse,
  ZDeliveryAddressRequest,
  ZDeliveryTimeRequest,
  ZDiscountCodeParams,
  ZDiscountCodesResponse,
  ZIntervalRequest,
  ZLineQuantityRequest,
  ZModifyPaymentMethodRequest,
  ZNextBillingDateRequest,
  ZNextDeliveryDateRequest,
  ZNextDeliveryDateResponse,
  ZNoteRequest,
  ZOrderCountRequest,
  ZOrderCountResponse,
  ZPaymentMethodsResponse,
  ZPaymentUpdateEmailResponse,
  ZPriceManuallyChangedRequest,
  ZRevisionQuery,
  ZSwapVariantRequest,
} from '@teiki/contract'
import type { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createContractEdits } from './edits-service.ts'

const errors = errorAnswers(400, 404, 409, 422, 502)

/** What an edit answers: `ok`, or one of the errors. */
const answers = <S extends z.ZodType>(ok: S) => ({ 200: ok, ...errors })

/** Contract edits of spec §7, with the spec's paths, methods and parameters. */
export function contractEditRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['subscription edits'])
  const edits = createContractEdits({
    db: app.db,
    clients: app.shopClients,
    log: app.log,
    billing: app.billingEngine,
  })
  const edited = ZContractEditResponse

  api.put('/app-admin/next-billing-date', '次回請求日を変更（日本時間の日付）', {
    body: ZNextBillingDateRequest,
    response: answers(edited),
    handler: (request) => edits.nextBillingDate(request.shop, request.body),
  })

  api.get('/app-admin/subscriptions/:id/next-delivery-date', 'お届け予定日', {
    params: ZContractIdParam,
    response: answers(ZNextDeliveryDateResponse),
    handler: (request) => edits.getNextDeliveryDate(request.shop, request.params.id),
  })
  api.put('/app-admin/subscriptions/:id/next-delivery-date', 'お届け予定日を変更', {
    params: ZContractIdParam,
    body: ZNextDeliveryDateRequest,
    response: answers(edited),
    handler: (request) => edits.nextDeliveryDate(request.shop, request.params.id, request.body),
  })

  api.put('/app-admin/subscription-contracts/:id/specify-delivery-time', '配送時間帯を指定', {
    params: ZContractIdParam,
    body: ZDeliveryTimeRequest,
    response: answers(edited),
    handler: (request) => edits.deliveryTime(request.shop, request.params.id, request.body),
  })

  api.put('/app-admin/interval-and-interval-count', '請求間隔・間隔数・アンカーを変更', {
    body: ZIntervalRequest,
    response: answers(edited),
    handler: (request) => edits.interval(request.shop, request.body),
  })

  api.post('/app-admin/create-order-now', '今すぐ注文を作成（請求を実行）', {
    body: ZCreateOrderNowRequest,
    response: answers(ZCreateOrderNowResponse),
    handler: (request) => edits.createOrderNow(request.shop, request.body),
  })

  api.post('/app-admin/subscriptions/:id/lines', '商品（明細）を追加', {
    params: ZContractIdParam,
    body: ZAddLineRequest,
    response: answers(edited),
    handler: (request) => edits.addLine(request.shop, request.params.id, request.body),
  })
  api.delete('/app-admin/subscriptions/:contractId/lines/:lineId', '商品（明細）を削除', {
    params: ZContractLineParams,
    querystring: ZRevisionQuery,
    response: answers(edited),
    handler: (request) =>
      edits.removeLine(
        request.shop,
        request.params.contractId,
        request.params.lineId,
        request.query.revision,
      ),
  })
  api.put('/app-admin/subscriptions/:contractId/:lineId/quantity', '数量を変更', {
    params: ZContractLineParams,
    body: ZLineQuantityRequest,
    response: answers(edited),
    handler: (request) =>
      edits.lineQuantity(request.shop, request.params.contractId, request.params.lineId, request.body),
  })
  api.post(
    '/app-admin/subscription-contracts/:id/price-manually-changed',
    '価格を手動変更済みにする（価格を指定すれば変更も）',
    {
      params: ZContractIdParam,
      body: ZPriceManuallyChangedRequest,
      response: answers(edited),
      handler: (request) => edits.priceManuallyChanged(request.shop, request.params.id, request.body),
    },
  )
  api.put('/app-admin/subscriptions/:contractId/:lineId/product-variant', 'バリエーションを入れ替え', {
    params: ZContractLineParams,
    body: ZSwapVariantRequest,
    response: answers(edited),
    handler: (request) =>
      edits.swapVariant(request.shop, request.params.contractId, request.params.lineId, request.body),
  })

  api.put('/app-admin/subscription-contracts/:id/note', 'メモを変更', {
    params: ZContractIdParam,
    body: ZNoteRequest,
    response: answers(edited),
    handler: (request) => edits.note(request.shop, request.params.id, request.body),
  })

  api.get('/app-admin/subscription-contracts/:id/order-count', '購入回数', {
    params: ZContractIdParam,
    response: answers(ZOrderCountResponse),
    handler: (request) => edits.getOrderCount(request.shop, request.params.id),
  })
  api.put('/app-admin/subscription-contracts/:id/order-count', '購入回数を修正', {
    params: ZContractIdParam,
    body: ZOrderCountRequest,
    response: answers(ZOrderCountResponse),
    handler: (request) => edits.setOrderCount(request.shop, request.params.id, request.body.count),
  })

  api.put('/app-admin/subscriptions/:id/delivery-address', '配送先を変更', {
    params: ZContractIdParam,
    body: ZDeliveryAddressRequest,
    response: answers(edited),
    handler: (request) => edits.deliveryAddress(request.shop, request.params.id, request.body),
  })

  api.get('/app-admin/subscription-contracts/:id/payment-methods', '顧客の決済方法一覧', {
    params: ZContractIdParam,
    response: answers(ZPaymentMethodsResponse),
    handler: (request) => edits.paymentMethods(request.shop, request.params.id),
  })
  api.put('/app-admin/modify-payment-method', '契約の決済方法を変更', {
    body: ZModifyPaymentMethodRequest,
    response: answers(edited),
    handler: (request) => edits.modifyPaymentMethod(request.shop, request.body),
  })
  api.post(
    '/app-admin/subscription-contracts/:id/payment-method-update-email',
    '決済方法の更新メールを顧客に送信',
    {
      params: ZContractIdParam,
      response: answers(ZPaymentUpdateEmailResponse),
      handler: (request) => edits.sendPaymentUpdateEmail(request.shop, request.params.id),
    },
  )

  api.get('/app-admin/subscriptions/:id/discount-code/', '契約の割引一覧', {
    params: ZContractIdParam,
    response: answers(ZDiscountCodesResponse),
    handler: (request) => edits.discountCodes(request.shop, request.params.id),
  })
  api.put('/app-admin/subscriptions/:id/discount-code/apply', '割引コードを適用', {
    params: ZContractIdParam,
    body: ZApplyDiscountCodeRequest,
    response: answers(edited),
    handler: (request) => edits.applyDiscountCode(request.shop, request.params.id, request.body),
  })
  api.delete('/app-admin/subscriptions/:id/discount-code/:code', '割引を削除', {
    params: ZDiscountCodeParams,
    querystring: ZRevisionQuery,
    response: answers(edited),
    handler: (request) =>
      edits.removeDiscount(request.shop, request.params.id, request.params.code, request.query.revision),
  })
}
