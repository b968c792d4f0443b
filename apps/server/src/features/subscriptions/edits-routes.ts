import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createContractEdits } from './edits-service.ts'

/** Contract edits of spec §7, with the spec's paths, methods and parameters. */
export function contractEditRoutes(app: AppInstance): void {
  const edits = createContractEdits({
    db: app.db,
    clients: app.shopClients,
    log: app.log,
    billing: app.billingEngine,
  })
  const route = tableRoutes(app, { tags: ['subscription edits'], errors: [400, 404, 409, 422, 502] })

  route('PUT /next-billing-date', '次回請求日を変更（日本時間の日付）', {
    handler: (request) => edits.nextBillingDate(request.shop, request.body),
  })

  route('GET /subscriptions/:id/next-delivery-date', 'お届け予定日', {
    handler: (request) => edits.getNextDeliveryDate(request.shop, request.params.id),
  })
  route('PUT /subscriptions/:id/next-delivery-date', 'お届け予定日を変更', {
    handler: (request) => edits.nextDeliveryDate(request.shop, request.params.id, request.body),
  })

  route('PUT /subscription-contracts/:id/specify-delivery-time', '配送時間帯を指定', {
    handler: (request) => edits.deliveryTime(request.shop, request.params.id, request.body),
  })

  route('PUT /interval-and-interval-count', '請求間隔・間隔数・アンカーを変更', {
    handler: (request) => edits.interval(request.shop, request.body),
  })

  route('POST /create-order-now', '今すぐ注文を作成（請求を実行）', {
    handler: (request) => edits.createOrderNow(request.shop, request.body),
  })

  route('POST /subscriptions/:id/lines', '商品（明細）を追加', {
    handler: (request) => edits.addLine(request.shop, request.params.id, request.body),
  })
  route('DELETE /subscriptions/:contractId/lines/:lineId', '商品（明細）を削除', {
    handler: (request) =>
      edits.removeLine(
        request.shop,
        request.params.contractId,
        request.params.lineId,
        request.query.revision,
      ),
  })
  route('PUT /subscriptions/:contractId/:lineId/quantity', '数量を変更', {
    handler: (request) =>
      edits.lineQuantity(request.shop, request.params.contractId, request.params.lineId, request.body),
  })
  route(
    'POST /subscription-contracts/:id/price-manually-changed',
    '価格を手動変更済みにする（価格を指定すれば変更も）',
    {
      handler: (request) => edits.priceManuallyChanged(request.shop, request.params.id, request.body),
    },
  )
  route('PUT /subscriptions/:contractId/:lineId/product-variant', 'バリエーションを入れ替え', {
    handler: (request) =>
      edits.swapVariant(request.shop, request.params.contractId, request.params.lineId, request.body),
  })

  route('PUT /subscription-contracts/:id/note', 'メモを変更', {
    handler: (request) => edits.note(request.shop, request.params.id, request.body),
  })

  route('GET /subscription-contracts/:id/order-count', '購入回数', {
    handler: (request) => edits.getOrderCount(request.shop, request.params.id),
  })
  route('PUT /subscription-contracts/:id/order-count', '購入回数を修正', {
    handler: (request) => edits.setOrderCount(request.shop, request.params.id, request.body.count),
  })

  route('PUT /subscriptions/:id/delivery-address', '配送先を変更', {
    handler: (request) => edits.deliveryAddress(request.shop, request.params.id, request.body),
  })

  route('GET /subscription-contracts/:id/payment-methods', '顧客の決済方法一覧', {
    handler: (request) => edits.paymentMethods(request.shop, request.params.id),
  })
  route('PUT /modify-payment-method', '契約の決済方法を変更', {
    handler: (request) => edits.modifyPaymentMethod(request.shop, request.body),
  })
  route('POST /subscription-contracts/:id/payment-method-update-email', '決済方法の更新メールを顧客に送信', {
    handler: (request) => edits.sendPaymentUpdateEmail(request.shop, request.params.id),
  })

  route('GET /subscriptions/:id/discount-code/', '契約の割引一覧', {
    handler: (request) => edits.discountCodes(request.shop, request.params.id),
  })
  route('PUT /subscriptions/:id/discount-code/apply', '割引コードを適用', {
    handler: (request) => edits.applyDiscountCode(request.shop, request.params.id, request.body),
  })
  route('DELETE /subscriptions/:id/discount-code/:code', '割引を削除', {
    handler: (request) =>
      edits.removeDiscount(request.shop, request.params.id, request.params.code, request.query.revision),
  })
}
