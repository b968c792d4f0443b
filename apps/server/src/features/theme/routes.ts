import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoutes } from '../../http/contract-route.ts'
import { createThemeService } from './service.ts'

/** Spec §7 "Theme" and script tags: the storefront widget in the shop's themes. */
export function themeRoutes(app: AppInstance): void {
  const route = tableRoutes(app, { tags: ['theme'], errors: [404, 409, 422, 502] })

  const themes = createThemeService({
    db: app.db,
    clients: app.shopClients,
    adminOrigin: app.platformOptions.adminOrigin,
    apiKey: app.platformOptions.apiKey,
  })

  route('GET /themes', 'ストアのテーマ一覧', {
    errors: [502],
    handler: (request) => themes.listThemes(request.shop),
  })

  route(
    'GET /themes/:id/templates/:t/app-block-support',
    'テンプレートがアプリブロックに対応しているか（テーマエディタのリンク、ストアのプレビュー）',
    {
      handler: (request) => themes.appBlockSupport(request.shop, request.params.id, request.params.t),
    },
  )

  route('POST /themes/:id/product-page-widget', '商品ページに定期購入ウィジェット（アプリブロック）を追加', {
    handler: (request) => themes.addProductPageWidget(request.shop, request.params.id),
  })

  route(
    'PUT /add-theme-section/:themeId',
    'テーマにセクションを追加し、商品ページのメインセクションの後に置く',
    {
      // 403: the platform does not let the app write theme files (no exemption).
      errors: [400, 403, 404, 409, 422, 502],
      handler: (request) => themes.addThemeSection(request.shop, request.params.themeId, request.body),
    },
  )

  route('GET /script-tags', 'アプリのスクリプトタグ一覧', {
    errors: [502],
    handler: (request) => themes.listScriptTags(request.shop),
  })

  route('DELETE /script-tags/:id', 'スクリプトタグを削除', {
    handler: (request) => themes.deleteScriptTag(request.shop, request.params.id),
  })
}
