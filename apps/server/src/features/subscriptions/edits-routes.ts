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
  ZErrorResponse,
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
import { createContractEdits } from './edits-service.ts'

const errors = {
  400: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
  502: ZErrorResponse,
}
const tags = ['subscription edits']

const schema = <S extends z.ZodType>(summary: string, ok: S) => ({
  tags,
  summary,
  response: { 200: ok, ...errors },
})

/** Contract edits of spec §7, with the spec's paths, methods and parameters. */
export function contractEditRoutes(app: AppInstance): void {
  const edits = createContractEdits({
    db: app.db,
    clients: app.shopClients,
    log: app.log,
    billing: app.billingEngine,
  })
  const edited = ZContractEditResponse

  app.put(
    '/app-admin/next-billing-date',
    { schema: { ...schema('次回請求日を変更（日本時間の日付）', edited), body: ZNextBillingDateRequest } },
    (request) => edits.nextBillingDate(request.shop, request.body),
  )

  app.get(
    '/app-admin/subscriptions/:id/next-delivery-date',
    { schema: { ...schema('お届け予定日', ZNextDeliveryDateResponse), params: ZContractIdParam } },
    (request) => edits.getNextDeliveryDate(request.shop, request.params.id),
  )
  app.put(
    '/app-admin/subscriptions/:id/next-delivery-date',
    {
      schema: {
        ...schema('お届け予定日を変更', edited),
        params: ZContractIdParam,
        body: ZNextDeliveryDateRequest,
      },
    },
    (request) => edits.nextDeliveryDate(request.shop, request.params.id, request.body),
  )

  app.put(
    '/app-admin/subscription-contracts/:id/specify-delivery-time',
    {
      schema: { ...schema('配送時間帯を指定', edited), params: ZContractIdParam, body: ZDeliveryTimeRequest },
    },
    (request) => edits.deliveryTime(request.shop, request.params.id, request.body),
  )

  app.put(
    '/app-admin/interval-and-interval-count',
    { schema: { ...schema('請求間隔・間隔数・アンカーを変更', edited), body: ZIntervalRequest } },
    (request) => edits.interval(request.shop, request.body),
  )

  app.post(
    '/app-admin/create-order-now',
    {
      schema: {
        ...schema('今すぐ注文を作成（請求を実行）', ZCreateOrderNowResponse),
        body: ZCreateOrderNowRequest,
      },
    },
    (request) => edits.createOrderNow(request.shop, request.body),
  )

  app.post(
    '/app-admin/subscriptions/:id/lines',
    { schema: { ...schema('商品（明細）を追加', edited), params: ZContractIdParam, body: ZAddLineRequest } },
    (request) => edits.addLine(request.shop, request.params.id, request.body),
  )
  app.delete(
    '/app-admin/subscriptions/:contractId/lines/:lineId',
    {
      schema: {
        ...schema('商品（明細）を削除', edited),
        params: ZContractLineParams,
        querystring: ZRevisionQuery,
      },
    },
    (request) =>
      edits.removeLine(
        request.shop,
        request.params.contractId,
        request.params.lineId,
        request.query.revision,
      ),
  )
  app.put(
    '/app-admin/subscriptions/:contractId/:lineId/quantity',
    { schema: { ...schema('数量を変更', edited), params: ZContractLineParams, body: ZLineQuantityRequest } },
    (request) =>
      edits.lineQuantity(request.shop, request.params.contractId, request.params.lineId, request.body),
  )
  app.post(
    '/app-admin/subscription-contracts/:id/price-manually-changed',
    {
      schema: {
        ...schema('価格を手動変更済みにする（価格を指定すれば変更も）', edited),
        params: ZContractIdParam,
        body: ZPriceManuallyChangedRequest,
      },
    },
    (request) => edits.priceManuallyChanged(request.shop, request.params.id, request.body),
  )
  app.put(
    '/app-admin/subscriptions/:contractId/:lineId/product-variant',
    {
      schema: {
        ...schema('バリエーションを入れ替え', edited),
        params: ZContractLineParams,
        body: ZSwapVariantRequest,
      },
    },
    (request) =>
      edits.swapVariant(request.shop, request.params.contractId, request.params.lineId, request.body),
  )

  app.put(
    '/app-admin/subscription-contracts/:id/note',
    { schema: { ...schema('メモを変更', edited), params: ZContractIdParam, body: ZNoteRequest } },
    (request) => edits.note(request.shop, request.params.id, request.body),
  )

  app.get(
    '/app-admin/subscription-contracts/:id/order-count',
    { schema: { ...schema('購入回数', ZOrderCountResponse), params: ZContractIdParam } },
    (request) => edits.getOrderCount(request.shop, request.params.id),
  )
  app.put(
    '/app-admin/subscription-contracts/:id/order-count',
    {
      schema: {
        ...schema('購入回数を修正', ZOrderCountResponse),
        params: ZContractIdParam,
        body: ZOrderCountRequest,
      },
    },
    (request) => edits.setOrderCount(request.shop, request.params.id, request.body.count),
  )

  app.put(
    '/app-admin/subscriptions/:id/delivery-address',
    {
      schema: { ...schema('配送先を変更', edited), params: ZContractIdParam, body: ZDeliveryAddressRequest },
    },
    (request) => edits.deliveryAddress(request.shop, request.params.id, request.body),
  )

  app.get(
    '/app-admin/subscription-contracts/:id/payment-methods',
    { schema: { ...schema('顧客の決済方法一覧', ZPaymentMethodsResponse), params: ZContractIdParam } },
    (request) => edits.paymentMethods(request.shop, request.params.id),
  )
  app.put(
    '/app-admin/modify-payment-method',
    { schema: { ...schema('契約の決済方法を変更', edited), body: ZModifyPaymentMethodRequest } },
    (request) => edits.modifyPaymentMethod(request.shop, request.body),
  )
  app.post(
    '/app-admin/subscription-contracts/:id/payment-method-update-email',
    {
      schema: {
        ...schema('決済方法の更新メールを顧客に送信', ZPaymentUpdateEmailResponse),
        params: ZContractIdParam,
      },
    },
    (request) => edits.sendPaymentUpdateEmail(request.shop, request.params.id),
  )

  app.get(
    '/app-admin/subscriptions/:id/discount-code/',
    { schema: { ...schema('契約の割引一覧', ZDiscountCodesResponse), params: ZContractIdParam } },
    (request) => edits.discountCodes(request.shop, request.params.id),
  )
  app.put(
    '/app-admin/subscriptions/:id/discount-code/apply',
    {
      schema: {
        ...schema('割引コードを適用', edited),
        params: ZContractIdParam,
        body: ZApplyDiscountCodeRequest,
      },
    },
    (request) => edits.applyDiscountCode(request.shop, request.params.id, request.body),
  )
  app.delete(
    '/app-admin/subscriptions/:id/discount-code/:code',
    { schema: { ...schema('割引を削除', edited), params: ZDiscountCodeParams, querystring: ZRevisionQuery } },
    (request) =>
      edits.removeDiscount(request.shop, request.params.id, request.params.code, request.query.revision),
  )
}
