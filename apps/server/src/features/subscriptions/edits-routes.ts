import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createContractEdits } from './edits-service.ts'

const errors = {
  400: ZErrorResponse,
  404: ZErrorResponse,
  409: ZErrorResponse,
  422: ZErrorResponse,
  502: ZErrorResponse,
}
const tags = ['subscription edits']

/** Contract edits of spec §7, with the spec's paths, methods and parameters. */
export function contractEditRoutes(app: AppInstance): void {
  const edits = createContractEdits({
    db: app.db,
    clients: app.shopClients,
    log: app.log,
    billing: app.billingEngine,
  })

  app.route({
    ...tableRoute('PUT /next-billing-date', {
      tags,
      summary: '次回請求日を変更（日本時間の日付）',
      errors,
    }),
    handler: (request) => edits.nextBillingDate(request.shop, request.body),
  })

  app.route({
    ...tableRoute('GET /subscriptions/:id/next-delivery-date', {
      tags,
      summary: 'お届け予定日',
      errors,
    }),
    handler: (request) => edits.getNextDeliveryDate(request.shop, request.params.id),
  })
  app.route({
    ...tableRoute('PUT /subscriptions/:id/next-delivery-date', {
      tags,
      summary: 'お届け予定日を変更',
      errors,
    }),
    handler: (request) => edits.nextDeliveryDate(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('PUT /subscription-contracts/:id/specify-delivery-time', {
      tags,
      summary: '配送時間帯を指定',
      errors,
    }),
    handler: (request) => edits.deliveryTime(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('PUT /interval-and-interval-count', {
      tags,
      summary: '請求間隔・間隔数・アンカーを変更',
      errors,
    }),
    handler: (request) => edits.interval(request.shop, request.body),
  })

  app.route({
    ...tableRoute('POST /create-order-now', {
      tags,
      summary: '今すぐ注文を作成（請求を実行）',
      errors,
    }),
    handler: (request) => edits.createOrderNow(request.shop, request.body),
  })

  app.route({
    ...tableRoute('POST /subscriptions/:id/lines', {
      tags,
      summary: '商品（明細）を追加',
      errors,
    }),
    handler: (request) => edits.addLine(request.shop, request.params.id, request.body),
  })
  app.route({
    ...tableRoute('DELETE /subscriptions/:contractId/lines/:lineId', {
      tags,
      summary: '商品（明細）を削除',
      errors,
    }),
    handler: (request) =>
      edits.removeLine(
        request.shop,
        request.params.contractId,
        request.params.lineId,
        request.query.revision,
      ),
  })
  app.route({
    ...tableRoute('PUT /subscriptions/:contractId/:lineId/quantity', {
      tags,
      summary: '数量を変更',
      errors,
    }),
    handler: (request) =>
      edits.lineQuantity(request.shop, request.params.contractId, request.params.lineId, request.body),
  })
  app.route({
    ...tableRoute('POST /subscription-contracts/:id/price-manually-changed', {
      tags,
      summary: '価格を手動変更済みにする（価格を指定すれば変更も）',
      errors,
    }),
    handler: (request) => edits.priceManuallyChanged(request.shop, request.params.id, request.body),
  })
  app.route({
    ...tableRoute('PUT /subscriptions/:contractId/:lineId/product-variant', {
      tags,
      summary: 'バリエーションを入れ替え',
      errors,
    }),
    handler: (request) =>
      edits.swapVariant(request.shop, request.params.contractId, request.params.lineId, request.body),
  })

  app.route({
    ...tableRoute('PUT /subscription-contracts/:id/note', {
      tags,
      summary: 'メモを変更',
      errors,
    }),
    handler: (request) => edits.note(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('GET /subscription-contracts/:id/order-count', {
      tags,
      summary: '購入回数',
      errors,
    }),
    handler: (request) => edits.getOrderCount(request.shop, request.params.id),
  })
  app.route({
    ...tableRoute('PUT /subscription-contracts/:id/order-count', {
      tags,
      summary: '購入回数を修正',
      errors,
    }),
    handler: (request) => edits.setOrderCount(request.shop, request.params.id, request.body.count),
  })

  app.route({
    ...tableRoute('PUT /subscriptions/:id/delivery-address', {
      tags,
      summary: '配送先を変更',
      errors,
    }),
    handler: (request) => edits.deliveryAddress(request.shop, request.params.id, request.body),
  })

  app.route({
    ...tableRoute('GET /subscription-contracts/:id/payment-methods', {
      tags,
      summary: '顧客の決済方法一覧',
      errors,
    }),
    handler: (request) => edits.paymentMethods(request.shop, request.params.id),
  })
  app.route({
    ...tableRoute('PUT /modify-payment-method', {
      tags,
      summary: '契約の決済方法を変更',
      errors,
    }),
    handler: (request) => edits.modifyPaymentMethod(request.shop, request.body),
  })
  app.route({
    ...tableRoute('POST /subscription-contracts/:id/payment-method-update-email', {
      tags,
      summary: '決済方法の更新メールを顧客に送信',
      errors,
    }),
    handler: (request) => edits.sendPaymentUpdateEmail(request.shop, request.params.id),
  })

  app.route({
    ...tableRoute('GET /subscriptions/:id/discount-code/', {
      tags,
      summary: '契約の割引一覧',
      errors,
    }),
    handler: (request) => edits.discountCodes(request.shop, request.params.id),
  })
  app.route({
    ...tableRoute('PUT /subscriptions/:id/discount-code/apply', {
      tags,
      summary: '割引コードを適用',
      errors,
    }),
    handler: (request) => edits.applyDiscountCode(request.shop, request.params.id, request.body),
  })
  app.route({
    ...tableRoute('DELETE /subscriptions/:id/discount-code/:code', {
      tags,
      summary: '割引を削除',
      errors,
    }),
    handler: (request) =>
      edits.removeDiscount(request.shop, request.params.id, request.params.code, request.query.revision),
  })
}
