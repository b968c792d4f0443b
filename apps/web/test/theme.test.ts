import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { AppBlockSupport, ScriptTag, Theme } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../src/app/api.ts'
import type { ModalOptions, ToastOptions } from '../src/app/ui-state.tsx'
import { createThemeActions } from '../src/features/theme/theme-actions.ts'
import type { ThemeApi } from '../src/features/theme/theme-api.ts'
import { ScriptTagsCard, WidgetCard } from '../src/features/theme/theme-page.tsx'
import {
  initialThemeState,
  type ThemeAction,
  type ThemeState,
  themeReducer,
} from '../src/features/theme/theme-state.ts'

const dawn: Theme = { id: '140000000001', name: 'Dawn', role: 'MAIN' }
const debut: Theme = { id: '140000000002', name: 'Debut', role: 'UNPUBLISHED' }
const supported: AppBlockSupport = {
  themeId: dawn.id,
  themeName: 'Dawn',
  template: 'product',
  supported: true,
  problem: null,
  message: 'このテーマの商品ページはアプリブロックに対応しています。',
  blockAdded: false,
  editorUrl: `https://teiki-demo.myshopify.com/admin/themes/${dawn.id}/editor?template=product&addAppBlockId=key/subscription-plans&target=mainSection`,
  previewUrl: 'http://127.0.0.1:3001/s/teiki-demo.myshopify.com/products/organic-drip-coffee',
  widgetMethod: 'themeFiles',
  widgetMethodMessage:
    'ウィジェットを追加を押すと、アプリが商品ページのテンプレートにウィジェットを書き込みます。',
}
const EDITOR_MESSAGE =
  'Shopify がこのアプリにテーマファイルの書き込みを許可していないため（一部のアプリだけに認められる特別な許可です）、「ウィジェットを追加」を押すとテーマエディタが開きます。'
const byEditor: AppBlockSupport = {
  ...supported,
  widgetMethod: 'themeEditor',
  widgetMethodMessage: EDITOR_MESSAGE,
}
const legacy: ScriptTag = {
  id: '210000000001',
  src: 'https://cdn.teiki.example/legacy/widget.js',
  displayScope: 'ONLINE_STORE',
  createdAt: '2026-11-20T01:00:00Z',
}

const reduce = (...actions: ThemeAction[]) => actions.reduce(themeReducer, initialThemeState)
const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))
/** Whether the button labelled `label` is disabled in `html`. */
function isDisabled(html: string, label: string): boolean {
  const button = html
    .split('<button')
    .slice(1)
    .find((chunk) => chunk.split('</button>')[0]!.includes(`>${label}</span>`))
  if (!button) throw new Error(`no button ${label}`)
  return /^[^>]*aria-disabled="true"/.test(button)
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')
const widget = (state: ThemeState) =>
  render(
    createElement(WidgetCard, {
      state,
      dispatch: () => {},
      onAdd: () => {},
      onRetry: () => {},
      onRecheck: () => {},
    }),
  )
/** The `<a>` or `<button>` of the control labelled `label` (its tag and attributes, from `a ` or `button`). */
const control = (html: string, label: string) =>
  html.split(/<(?=a |button)/).find((chunk) => chunk.includes(`>${label}</span></`)) ?? ''
const tags = (state: ThemeState) =>
  render(createElement(ScriptTagsCard, { state, onDelete: () => {}, onRetry: () => {} }))

describe('テーマ page: the widget card', () => {
  it('waits with a skeleton, then picks the published theme', () => {
    expect(widget(initialThemeState)).toContain('Polaris-SkeletonBodyText')
    const state = reduce({ type: 'themesLoaded', themes: [debut, dawn] })
    expect(state.themeId).toBe(dawn.id)
    expect(text(widget(state))).toContain('Dawn（公開中）')
  })

  it('shows why the themes could not be read, with 再試行', () => {
    const html = text(widget(reduce({ type: 'themesFailed', message: 'Shopify に接続できませんでした' })))
    expect(html).toContain('テーマを読み込めませんでした')
    expect(html).toContain('Shopify に接続できませんでした')
    expect(html).toContain('再試行')
  })

  it('offers ウィジェットを追加, the theme editor and the store when the theme supports app blocks', () => {
    const html = widget(
      reduce({ type: 'themesLoaded', themes: [dawn] }, { type: 'supportLoaded', support: supported }),
    )
    expect(text(html)).toContain('未追加')
    expect(text(html)).toContain(supported.message)
    expect(isDisabled(html, 'ウィジェットを追加')).toBe(false)
    // Which way it adds the block, and that it asks the server (a button, not a link).
    expect(text(html)).toContain(supported.widgetMethodMessage)
    expect(control(html, 'ウィジェットを追加').startsWith('button')).toBe(true)
    expect(html).toContain(`href="${supported.editorUrl!.replaceAll('&', '&amp;')}"`)
    expect(html).toContain(`href="${supported.previewUrl}"`)
    expect(text(html)).toContain('ストアで確認')
  })

  it('says 追加済み and disables the button once the block is there; says why not on a vintage theme', () => {
    const added = widget(
      reduce(
        { type: 'themesLoaded', themes: [dawn] },
        { type: 'supportLoaded', support: { ...supported, blockAdded: true } },
      ),
    )
    expect(text(added)).toContain('ウィジェット追加済み')
    expect(isDisabled(added, 'ウィジェットを追加')).toBe(true)
    const vintage = widget(
      reduce(
        { type: 'themesLoaded', themes: [debut] },
        {
          type: 'supportLoaded',
          support: {
            ...supported,
            supported: false,
            problem: 'NOT_JSON_TEMPLATE',
            message: 'JSONテンプレートではないため',
            previewUrl: null,
          },
        },
      ),
    )
    expect(text(vintage)).toContain('アプリブロック非対応')
    expect(text(vintage)).toContain('ストアで確認できません')
  })
})

describe('テーマ page: where the platform refuses the app’s theme-file writes', () => {
  it('ウィジェットを追加 is the theme editor’s link at the block, with why and 追加を確認', () => {
    const html = widget(
      reduce({ type: 'themesLoaded', themes: [dawn] }, { type: 'supportLoaded', support: byEditor }),
    )
    expect(text(html)).toContain(EDITOR_MESSAGE)
    const add = control(html, 'ウィジェットを追加')
    expect(add.startsWith('a ')).toBe(true)
    expect(add).toContain(`href="${byEditor.editorUrl!.replaceAll('&', '&amp;')}"`)
    expect(add).toContain('target="_blank"')
    expect(isDisabled(html, '追加を確認')).toBe(false)
    // The editor link is the button itself: no second テーマエディタで開く.
    expect(text(html)).not.toContain('テーマエディタで開く')
  })
})

describe('テーマ page: the script tags card', () => {
  it('is empty, listed, or failed', () => {
    expect(text(tags(reduce({ type: 'tagsLoaded', tags: [] })))).toContain('スクリプトタグはありません')
    const listed = text(tags(reduce({ type: 'tagsLoaded', tags: [legacy] })))
    expect(listed).toContain(legacy.src)
    expect(listed).toContain('表示先: ストア・登録: 2026年11月20日 10:00')
    expect(listed).toContain('削除')
    const failed = text(tags(reduce({ type: 'tagsFailed', message: 'ストアのAPIが混み合っています' })))
    expect(failed).toContain('スクリプトタグを読み込めませんでした')
    expect(failed).toContain('ストアのAPIが混み合っています')
  })
})

/** The page's flows against a fake server, a reducer-held state and a recording UI. */
function flows(api: Partial<ThemeApi>) {
  let state = reduce(
    { type: 'themesLoaded', themes: [dawn] },
    { type: 'supportLoaded', support: supported },
    { type: 'tagsLoaded', tags: [legacy] },
  )
  const toasts: Array<{ message: string; error: boolean }> = []
  let modal: ModalOptions | null = null
  let supportReloads = 0
  const opened: string[] = []
  const actions = createThemeActions({
    api: api as ThemeApi,
    ui: {
      showToast: (message: string, o?: ToastOptions) => toasts.push({ message, error: o?.error ?? false }),
      openModal: (o) => {
        modal = o
      },
      updateModal: (patch) => {
        if (modal) modal = { ...modal, ...patch }
      },
      closeModal: () => {
        modal = null
      },
    },
    dispatch: (action) => {
      state = themeReducer(state, action)
    },
    getState: () => state,
    reloadSupport: () => supportReloads++,
    openUrl: (url) => opened.push(url),
  })
  return {
    actions,
    toasts,
    opened,
    state: () => state,
    modal: () => modal,
    supportReloads: () => supportReloads,
  }
}

describe('テーマ page: actions', () => {
  it('ウィジェットを追加 adds the block to the chosen theme and marks it added', async () => {
    const asked: string[] = []
    const f = flows({
      addWidget: async (id) => {
        asked.push(id)
        return {
          themeId: id,
          added: true,
          blockType: 'x',
          method: 'themeFiles',
          editorUrl: null,
          message: '商品ページにウィジェットを追加しました',
        }
      },
    })
    await f.actions.addWidget()
    expect(asked).toEqual([dawn.id])
    expect(f.toasts).toEqual([{ message: '商品ページにウィジェットを追加しました', error: false }])
    expect(f.state().support).toMatchObject({ status: 'ready', data: { blockAdded: true } })
    expect(f.state().busy).toBeNull()
    expect(f.opened).toEqual([])
  })

  it('where the platform refuses the write, it opens the theme editor at the block and says why', async () => {
    const f = flows({
      addWidget: async (id) => ({
        themeId: id,
        added: false,
        blockType: 'x',
        method: 'themeEditor',
        editorUrl: byEditor.editorUrl,
        message: EDITOR_MESSAGE,
      }),
    })
    await f.actions.addWidget()
    expect(f.opened).toEqual([byEditor.editorUrl])
    expect(f.toasts).toEqual([
      { message: 'テーマエディタを開きました。「保存」を押すとウィジェットが追加されます', error: false },
    ])
    expect(f.state().support).toMatchObject({
      status: 'ready',
      data: { blockAdded: false, widgetMethod: 'themeEditor', widgetMethodMessage: EDITOR_MESSAGE },
    })
    expect(f.state().busy).toBeNull()
  })

  it('a refusal is an error toast with the server’s words, and the theme is read again', async () => {
    const f = flows({
      addWidget: async () => {
        throw new ApiError(409, 'CONFLICT', 'このテーマの商品ページはJSONテンプレートではないため')
      },
    })
    await f.actions.addWidget()
    expect(f.toasts).toEqual([
      { message: 'このテーマの商品ページはJSONテンプレートではないため', error: true },
    ])
    expect(f.state().support).toMatchObject({ data: { blockAdded: false } })
    expect(f.supportReloads()).toBe(1)
  })

  it('削除 asks first, then deletes the tag and drops it from the list', async () => {
    const deleted: string[] = []
    const f = flows({ deleteScriptTag: async (id) => void deleted.push(id) })
    f.actions.confirmDelete(legacy)
    expect(f.modal()?.title).toBe('スクリプトタグを削除しますか？')
    expect(deleted).toEqual([])
    await f.modal()!.primaryAction.onAction()
    expect(deleted).toEqual([legacy.id])
    expect(f.state().scriptTags).toEqual({ status: 'ready', data: [] })
    expect(f.toasts).toEqual([{ message: 'スクリプトタグを削除しました', error: false }])
    expect(f.modal()).toBeNull()
  })

  it('a tag already gone leaves the list too; another failure keeps it', async () => {
    const gone = flows({
      deleteScriptTag: async () => {
        throw new ApiError(404, 'NOT_FOUND', 'スクリプトタグが見つかりません')
      },
    })
    gone.actions.confirmDelete(legacy)
    await gone.modal()!.primaryAction.onAction()
    expect(gone.state().scriptTags).toEqual({ status: 'ready', data: [] })
    const down = flows({
      deleteScriptTag: async () => {
        throw new ApiError(502, 'PLATFORM_UNAVAILABLE', 'Shopify に接続できませんでした')
      },
    })
    down.actions.confirmDelete(legacy)
    await down.modal()!.primaryAction.onAction()
    expect(down.state().scriptTags).toEqual({ status: 'ready', data: [legacy] })
    expect(down.toasts).toEqual([{ message: 'Shopify に接続できませんでした', error: true }])
  })
})
