import type { AppBlockSupport, ProductPageWidgetResponse, ScriptTag, Theme } from '@teiki/contract'
import { api } from '../../app/api.ts'

/** The endpoints the テーマ page uses (an interface so its flows are tested without a server). */
export type ThemeApi = {
  themes: () => Promise<Theme[]>
  support: (themeId: string) => Promise<AppBlockSupport>
  addWidget: (themeId: string) => Promise<ProductPageWidgetResponse>
  scriptTags: () => Promise<ScriptTag[]>
  deleteScriptTag: (id: string) => Promise<void>
}

export const httpThemeApi: ThemeApi = {
  themes: async () => (await api('GET /themes')).themes,
  support: (themeId) =>
    api('GET /themes/:id/templates/:t/app-block-support', { params: { id: themeId, t: 'product' } }),
  addWidget: (themeId) => api('POST /themes/:id/product-page-widget', { params: { id: themeId } }),
  scriptTags: async () => (await api('GET /script-tags')).scriptTags,
  deleteScriptTag: async (id) => {
    await api('DELETE /script-tags/:id', { params: { id } })
  },
}
