import { ZErrorResponse } from '@teiki/contract'
import { deliveryPrepDaysOperation } from '../../billing/prep-days.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { addMyPageTargets, listMyPageTargets, removeMyPageTarget } from './my-page-service.ts'
import { getSettings, putSettings } from './service.ts'

/** 設定 (spec §7 "Settings and mail"): settings, the prep-days rule, the my-page target variants. */
export function settingsRoutes(app: AppInstance): void {
  const tags = ['settings']
  // The plan decides the prep-days rule: read the row fresh, not the auth cache's copy.
  const freshShop = async (shop: { domain: string }) => (await findInstalledShop(app.db, shop.domain))!

  app.route({
    ...tableRoute('GET /settings', { tags, summary: '設定' }),
    handler: async (request) => getSettings(app.db, await freshShop(request.shop)),
  })
  app.route({
    ...tableRoute('PUT /settings', {
      tags,
      summary: '設定を保存（JSONの誤りは位置を示して400、準備期間を変更できないときは403）',
      errors: { 400: ZErrorResponse, 403: ZErrorResponse },
    }),
    handler: async (request) => putSettings(app.db, await freshShop(request.shop), request.body.settings),
  })
  app.route({
    ...tableRoute('GET /current-delivery-prep-days-operation', {
      tags,
      summary: 'お届け準備期間を変更できるか（仕様5章）',
    }),
    handler: async (request) => deliveryPrepDaysOperation(app.db, await freshShop(request.shop)),
  })
  app.route({
    ...tableRoute('GET /my-page-target-product-variants', {
      tags,
      summary: 'マイページで選べるバリエーション',
    }),
    handler: (request) => listMyPageTargets(app.db, request.shop),
  })
  app.route({
    ...tableRoute('POST /my-page-target-product-variants', {
      tags,
      summary: 'マイページで選べるバリエーションを追加',
      errors: { 400: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: (request) => addMyPageTargets(app.db, request.shop, request.body.group, request.body.variantIds),
  })
  app.route({
    ...tableRoute('DELETE /my-page-target-product-variants', {
      tags,
      summary: 'マイページで選べるバリエーションから外す',
      errors: { 400: ZErrorResponse, 403: ZErrorResponse, 404: ZErrorResponse },
    }),
    handler: (request) =>
      removeMyPageTarget(app.db, request.shop, request.query.group, request.query.variantId),
  })
}
