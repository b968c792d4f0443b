import type { SettingsResponse } from '@teiki/contract'
import { deliveryPrepDaysOperation } from '../../billing/prep-days.ts'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { findInstalledShop, type ShopRow } from '../../platform/shops-repo.ts'
import { type TrafficRouteOptions, trafficPixelConnector } from '../traffic/routes.ts'
import { addMyPageTargets, listMyPageTargets, removeMyPageTarget } from './my-page-service.ts'
import { getSettings, putSettings } from './service.ts'

/** 設定 (spec §7 "Settings and mail"): settings, the prep-days rule, the my-page target variants. */
export function settingsRoutes(app: AppInstance, traffic: TrafficRouteOptions = {}): void {
  const route = tableRoutes(app, { tags: ['settings'] })

  // The plan decides the prep-days rule: read the row fresh, not the auth cache's copy.
  const freshShop = async (shop: { domain: string }) => (await findInstalledShop(app.db, shop.domain))!

  // The pixel carries the サンクスページ's 計測タグ: reading it brings its settings up to date
  // (webPixelUpdate when the tags changed); a refusal is recorded and shown, never thrown.
  const pixel = trafficPixelConnector(app, traffic)
  const withPixel = async (shop: ShopRow, answer: Omit<SettingsResponse, 'pixel'>) => ({
    ...answer,
    pixel: (await pixel.read(shop)).connection,
  })

  route('GET /settings', '設定', {
    handler: async (request) => {
      const shop = await freshShop(request.shop)
      return withPixel(shop, await getSettings(app.db, shop))
    },
  })
  route('PUT /settings', '設定を保存（JSONの誤りは位置を示して400、準備期間を変更できないときは403）', {
    errors: [400, 403],
    handler: async (request) => {
      const shop = await freshShop(request.shop)
      return withPixel(shop, await putSettings(app.db, shop, request.body.settings))
    },
  })
  route('GET /current-delivery-prep-days-operation', 'お届け準備期間を変更できるか（仕様5章）', {
    handler: async (request) => deliveryPrepDaysOperation(app.db, await freshShop(request.shop)),
  })
  route('GET /my-page-target-product-variants', 'マイページで選べるバリエーション', {
    handler: (request) => listMyPageTargets(app.db, request.shop),
  })
  route('POST /my-page-target-product-variants', 'マイページで選べるバリエーションを追加', {
    errors: [400, 403, 404],
    handler: (request) => addMyPageTargets(app.db, request.shop, request.body.group, request.body.variantIds),
  })
  route('DELETE /my-page-target-product-variants', 'マイページで選べるバリエーションから外す', {
    errors: [400, 403, 404],
    handler: (request) =>
      removeMyPageTarget(app.db, request.shop, request.query.group, request.query.variantId),
  })
}
