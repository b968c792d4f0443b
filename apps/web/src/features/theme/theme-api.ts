import type {
  AppBlockSupport,
  ProductPageWidgetResponse,
  ScriptTag,
  ScriptTagList,
  Theme,
  ThemeList,
} from '@teiki/contract'
import { apiDelete, apiGet, apiPost } from '../../app/api.ts'

/** The endpoints the テーマ page uses (an interface so its flows are tested without a server). */
export type ThemeApi = {
  themes: () => Promise<Theme[]>
  support: (themeId: string) => Promise<AppBlockSupport>
  addWidget: (themeId: string) => Promise<ProductPageWidgetResponse>
  scriptTags: () => Promise<ScriptTag[]>
  deleteScriptTag: (id: string) => Promise<void>
}

export const httpThemeApi: ThemeApi = {
  themes: async () => (await apiGet<ThemeList>('/themes')).themes,
  support: (themeId) =>
    apiGet<AppBlockSupport>(`/themes/${encodeURIComponent(themeId)}/templates/product/app-block-support`),
  addWidget: (themeId) =>
    apiPost<ProductPageWidgetResponse>(`/themes/${encodeURIComponent(themeId)}/product-page-widget`, {}),
  scriptTags: async () => (await apiGet<ScriptTagList>('/script-tags')).scriptTags,
  deleteScriptTag: async (id) => {
    await apiDelete<null>(`/script-tags/${encodeURIComponent(id)}`)
  },
}
