import {
  ZAddThemeSectionBody,
  ZAddThemeSectionParams,
  ZAddThemeSectionResponse,
  ZAppBlockSupport,
  ZErrorResponse,
  ZProductPageWidgetResponse,
  ZScriptTagList,
  ZScriptTagParams,
  ZTemplateParams,
  ZThemeList,
  ZThemeParams,
} from '@teiki/contract'
import { z } from 'zod'
import type { AppInstance } from '../../http/app-instance.ts'
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

  app.get(
    '/app-admin/themes',
    { schema: { tags, summary: 'ストアのテーマ一覧', response: { 200: ZThemeList, 502: ZErrorResponse } } },
    (request) => themes.listThemes(request.shop),
  )

  app.get(
    '/app-admin/themes/:id/templates/:t/app-block-support',
    {
      schema: {
        tags,
        summary: 'テンプレートがアプリブロックに対応しているか（テーマエディタのリンク、ストアのプレビュー）',
        params: ZTemplateParams,
        response: { 200: ZAppBlockSupport, ...errors },
      },
    },
    (request) => themes.appBlockSupport(request.shop, request.params.id, request.params.t),
  )

  app.post(
    '/app-admin/themes/:id/product-page-widget',
    {
      schema: {
        tags,
        summary: '商品ページに定期購入ウィジェット（アプリブロック）を追加',
        params: ZThemeParams,
        response: { 200: ZProductPageWidgetResponse, ...errors },
      },
    },
    (request) => themes.addProductPageWidget(request.shop, request.params.id),
  )

  app.put(
    '/app-admin/add-theme-section/:themeId',
    {
      schema: {
        tags,
        summary: 'テーマにセクションを追加し、商品ページのメインセクションの後に置く',
        params: ZAddThemeSectionParams,
        body: ZAddThemeSectionBody,
        // 403: the platform does not let the app write theme files (no exemption).
        response: { 200: ZAddThemeSectionResponse, 400: ZErrorResponse, 403: ZErrorResponse, ...errors },
      },
    },
    (request) => themes.addThemeSection(request.shop, request.params.themeId, request.body),
  )

  app.get(
    '/app-admin/script-tags',
    {
      schema: {
        tags,
        summary: 'アプリのスクリプトタグ一覧',
        response: { 200: ZScriptTagList, 502: ZErrorResponse },
      },
    },
    (request) => themes.listScriptTags(request.shop),
  )

  app.delete(
    '/app-admin/script-tags/:id',
    {
      schema: {
        tags,
        summary: 'スクリプトタグを削除',
        params: ZScriptTagParams,
        response: { 204: z.null().describe('削除しました'), ...errors },
      },
    },
    async (request, reply) => {
      await themes.deleteScriptTag(request.shop, request.params.id)
      return reply.code(204).send(null)
    },
  )
}
