import type { AppBlockSupport, ScriptTag, Theme } from '@teiki/contract'

/** A piece of the page loaded from the server: loading, failed (with the server's message) or there. */
export type Loaded<T> =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; data: T }

/** What the テーマ page shows; changed only through `themeReducer`. */
export type ThemeState = {
  themes: Loaded<Theme[]>
  /** The theme the widget card is about (the published one until the merchant picks another). */
  themeId: string | null
  support: Loaded<AppBlockSupport>
  scriptTags: Loaded<ScriptTag[]>
  busy: { kind: 'addWidget' } | { kind: 'deleteTag'; id: string } | null
}

export type ThemeAction =
  | { type: 'themesLoaded'; themes: Theme[] }
  | { type: 'themesFailed'; message: string }
  | { type: 'themeChosen'; themeId: string }
  | { type: 'supportLoading' }
  | { type: 'supportLoaded'; support: AppBlockSupport }
  | { type: 'supportFailed'; message: string }
  | { type: 'tagsLoading' }
  | { type: 'tagsLoaded'; tags: ScriptTag[] }
  | { type: 'tagsFailed'; message: string }
  | { type: 'addStarted' }
  | { type: 'addFinished'; added: boolean }
  /** The platform refused the app's theme-file write: the theme editor adds the block. */
  | { type: 'editorChosen'; message: string }
  | { type: 'deleteStarted'; id: string }
  | { type: 'deleteFinished'; id: string; deleted: boolean }

export const initialThemeState: ThemeState = {
  themes: { status: 'loading' },
  themeId: null,
  support: { status: 'loading' },
  scriptTags: { status: 'loading' },
  busy: null,
}

export function themeReducer(state: ThemeState, action: ThemeAction): ThemeState {
  switch (action.type) {
    case 'themesLoaded': {
      const published = action.themes.find((t) => t.role === 'MAIN') ?? action.themes[0]
      return {
        ...state,
        themes: { status: 'ready', data: action.themes },
        themeId: state.themeId ?? published?.id ?? null,
      }
    }
    case 'themesFailed':
      return { ...state, themes: { status: 'error', message: action.message } }
    case 'themeChosen':
      return { ...state, themeId: action.themeId, support: { status: 'loading' } }
    case 'supportLoading':
      return { ...state, support: { status: 'loading' } }
    case 'supportLoaded':
      return { ...state, support: { status: 'ready', data: action.support } }
    case 'supportFailed':
      return { ...state, support: { status: 'error', message: action.message } }
    case 'tagsLoading':
      return { ...state, scriptTags: { status: 'loading' } }
    case 'tagsLoaded':
      return { ...state, scriptTags: { status: 'ready', data: action.tags } }
    case 'tagsFailed':
      return { ...state, scriptTags: { status: 'error', message: action.message } }
    case 'addStarted':
      return { ...state, busy: { kind: 'addWidget' } }
    case 'addFinished': {
      const support = state.support
      return {
        ...state,
        busy: null,
        support:
          action.added && support.status === 'ready'
            ? { status: 'ready', data: { ...support.data, blockAdded: true } }
            : support,
      }
    }
    case 'editorChosen': {
      const support = state.support
      return {
        ...state,
        busy: null,
        support:
          support.status === 'ready'
            ? {
                status: 'ready',
                data: { ...support.data, widgetMethod: 'themeEditor', widgetMethodMessage: action.message },
              }
            : support,
      }
    }
    case 'deleteStarted':
      return { ...state, busy: { kind: 'deleteTag', id: action.id } }
    case 'deleteFinished': {
      const tags = state.scriptTags
      return {
        ...state,
        busy: null,
        scriptTags:
          action.deleted && tags.status === 'ready'
            ? { status: 'ready', data: tags.data.filter((t) => t.id !== action.id) }
            : tags,
      }
    }
  }
}

const ROLE_LABEL: Record<string, string> = { MAIN: '公開中', UNPUBLISHED: '非公開', DEVELOPMENT: '開発用' }

/** 「Dawn（公開中）」: how a theme reads in the picker. */
export const themeLabel = (t: Theme) => `${t.name}（${ROLE_LABEL[t.role] ?? t.role}）`

/** The widget card's status badge. */
export function widgetStatus(s: AppBlockSupport): {
  label: string
  tone: 'success' | 'attention' | 'critical'
} {
  if (!s.supported) return { label: 'アプリブロック非対応', tone: 'critical' }
  return s.blockAdded
    ? { label: 'ウィジェット追加済み', tone: 'success' }
    : { label: '未追加', tone: 'attention' }
}

const SCOPE_LABEL: Record<string, string> = {
  ALL: 'ストアと注文状況ページ',
  ONLINE_STORE: 'ストア',
  ORDER_STATUS: '注文状況ページ',
}
export const scopeLabel = (scope: string) => SCOPE_LABEL[scope] ?? scope
