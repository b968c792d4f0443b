import { ZErrorResponse } from '@teiki/contract'
import type { AppInstance } from '../../http/app-instance.ts'
import { tableRoute } from '../../http/contract-route.ts'
import { createThemeService } from './service.ts'

/** Spec §7 "Theme" and script tags: the storefront widget in the shop's themes. */
export function themeRoutes(app: AppInstance): void {
  const tags = ['theme']
  const themes = createThemeService({
    db: app.db,
    clients: app.shopClients,
    adminOrigin: app.platformOptions.adminOrigin,
    apiKey: app.platformOptions.apiKey,
  })
  const errors = { 404: ZErrorResponse, 409: ZErrorResponse, 422: ZErrorResponse, 502: ZErrorResponse }

  app.route({
    ...tableRoute('GET /themes', { tags, summary: 'ストアのテーマ一覧', errors: { 502: ZErrorResponse } }),
    handler: (request) => themes.listThemes(request.shop),
  })

  app.route({
    ...tableRoute('GET /themes/:id/templates/:t/app-block-support', {
      tags,
      summary: 'テンプレートがアプリブロックに対応しているか（テーマエディタのリンク、ストアのプレビュー）',
      errors,
    }),
    handler: (request) => themes.appBlockSupport(request.shop, request.params.id, request.params.t),
  })

  app.route({
    ...tableRoute('POST /themes/:id/product-page-widget', {
      tags,
      summary: '商品ページに定期購入ウィジェット（アプリブロック）を追加',
      errors,
    }),
    handler: (request) => themes.addProductPageWidget(request.shop, request.params.id),
  })

  app.route({
    ...tableRoute('PUT /add-theme-section/:themeId', {
      tags,
      summary: 'テーマにセクションを追加し、商品ページのメインセクションの後に置く',
      // 403: the platform does not let the app write theme files (no exemption).
      errors: { 400: ZErrorResponse, 403: ZErrorResponse, ...errors },
    }),
    handler: (request) => themes.addThemeSection(request.shop, request.params.themeId, request.body),
  })

  app.route({
    ...tableRoute('GET /script-tags', {
      tags,
      summary: 'アプリのスクリプトタグ一覧',
      errors: { 502: ZErrorResponse },
    }),
    handler: (request) => themes.listScriptTags(request.shop),
  })

  app.route({
    ...tableRoute('DELETE /script-tags/:id', {
      tags,
      summary: 'スクリプトタグを削除',
      errors,
    }),
    handler: async (request, reply) => {
      await themes.deleteScriptTag(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  })
}
