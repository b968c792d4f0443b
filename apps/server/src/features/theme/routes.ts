import {
  ZAddThemeSectionBody,
  ZAddThemeSectionParams,
  ZAddThemeSectionResponse,
  ZAppBlockSupport,
  ZProductPageWidgetResponse,
  ZScriptTagList,
  ZScriptTagParams,
  ZTemplateParams,
  ZThemeList,
  ZThemeParams,
} from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { apiRoutes, errorAnswers } from '../../http/routes.ts'
import { createThemeService } from './service.ts'

/** Spec §7 "Theme" and script tags: the storefront widget in the shop's themes. */
export function themeRoutes(app: AppInstance): void {
  const tags = ['theme']
  const api = apiRoutes(app, tags)
  const themes = createThemeService({
    db: app.db,
    clients: app.shopClients,
    adminOrigin: app.platformOptions.adminOrigin,
    apiKey: app.platformOptions.apiKey,
  })
  const errors = errorAnswers(404, 409, 422, 502)

  api.get('/app-admin/themes', 'ストアのテーマ一覧', {
    response: { 200: ZThemeList, ...errorAnswers(502) },
    handler: (request) => themes.listThemes(request.shop),
  })

  api.get(
    '/app-admin/themes/:id/templates/:t/app-block-support',
    'テンプレートがアプリブロックに対応しているか（テーマエディタのリンク、ストアのプレビュー）',
    {
      params: ZTemplateParams,
      response: { 200: ZAppBlockSupport, ...errors },
      handler: (request) => themes.appBlockSupport(request.shop, request.params.id, request.params.t),
    },
  )

  api.post(
    '/app-admin/themes/:id/product-page-widget',
    '商品ページに定期購入ウィジェット（アプリブロック）を追加',
    {
      params: ZThemeParams,
      response: { 200: ZProductPageWidgetResponse, ...errors },
      handler: (request) => themes.addProductPageWidget(request.shop, request.params.id),
    },
  )

  api.put(
    '/app-admin/add-theme-section/:themeId',
    'テーマにセクションを追加し、商品ページのメインセクションの後に置く',
    {
      params: ZAddThemeSectionParams,
      body: ZAddThemeSectionBody, // 403: the platform does not let the app write theme files (no exemption).
      response: { 200: ZAddThemeSectionResponse, ...errors, ...errorAnswers(400, 403) },
      handler: (request) => themes.addThemeSection(request.shop, request.params.themeId, request.body),
    },
  )

  api.get('/app-admin/script-tags', 'アプリのスクリプトタグ一覧', {
    response: { 200: ZScriptTagList, ...errorAnswers(502) },
    handler: (request) => themes.listScriptTags(request.shop),
  })

  api.remove('/app-admin/script-tags/:id', 'スクリプトタグを削除', {
    params: ZScriptTagParams,
    response: errors,
    handler: (request) => themes.deleteScriptTag(request.shop, request.params.id),
  })
}
