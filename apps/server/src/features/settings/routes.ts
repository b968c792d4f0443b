import {
  ZDeliveryPrepDaysOperation,
  ZMyPageTargetVariantBody,
  ZMyPageTargetVariantDeleteQuery,
  ZMyPageTargetVariantList,
  ZSettingsBody,
  ZSettingsResponse,
} from '@teiki/contract'
import { deliveryPrepDaysOperation } from '../../billing/prep-days.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { addMyPageTargets, listMyPageTargets, removeMyPageTarget } from './my-page-service.ts'
import { getSettings, putSettings } from './service.ts'

/** 設定 (spec §7 "Settings and mail"): settings, the prep-days rule, the my-page target variants. */
export function settingsRoutes(app: AppInstance): void {
  const api = apiRoutes(app, ['settings'])
  // The plan decides the prep-days rule: read the row fresh, not the auth cache's copy.
  const freshShop = async (shop: { domain: string }) => (await findInstalledShop(app.db, shop.domain))!

  api.get('/app-admin/settings', '設定', {
    response: { 200: ZSettingsResponse },
    handler: async (request) => getSettings(app.db, await freshShop(request.shop)),
  })
  api.put(
    '/app-admin/settings',
    '設定を保存（JSONの誤りは位置を示して400、準備期間を変更できないときは403）',
    {
      body: ZSettingsBody,
      response: { 200: ZSettingsResponse, ...errorAnswers(400, 403) },
      handler: async (request) => putSettings(app.db, await freshShop(request.shop), request.body.settings),
    },
  )
  api.get('/app-admin/current-delivery-prep-days-operation', 'お届け準備期間を変更できるか（仕様5章）', {
    response: { 200: ZDeliveryPrepDaysOperation },
    handler: async (request) => deliveryPrepDaysOperation(app.db, await freshShop(request.shop)),
  })
  api.get('/app-admin/my-page-target-product-variants', 'マイページで選べるバリエーション', {
    response: { 200: ZMyPageTargetVariantList },
    handler: (request) => listMyPageTargets(app.db, request.shop),
  })
  api.post('/app-admin/my-page-target-product-variants', 'マイページで選べるバリエーションを追加', {
    body: ZMyPageTargetVariantBody,
    response: { 200: ZMyPageTargetVariantList, ...errorAnswers(400, 403, 404) },
    handler: (request) => addMyPageTargets(app.db, request.shop, request.body.group, request.body.variantIds),
  })
  api.delete('/app-admin/my-page-target-product-variants', 'マイページで選べるバリエーションから外す', {
    querystring: ZMyPageTargetVariantDeleteQuery,
    response: { 200: ZMyPageTargetVariantList, ...errorAnswers(400, 403, 404) },
    handler: (request) =>
      removeMyPageTarget(app.db, request.shop, request.query.group, request.query.variantId),
  })
}
