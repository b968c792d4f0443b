import type { ScriptTag } from '@teiki/contract'
import { ApiError, errorMessage } from '../../app/api.ts'
import type { ReducerDeps } from '../../app/use-reducer-state.ts'
import type { ThemeApi } from './theme-api.ts'
import type { ThemeAction, ThemeState } from './theme-state.ts'

export type ThemeDeps = ReducerDeps<ThemeState, ThemeAction> & {
  api: ThemeApi
  /** Reads the chosen theme's support again (after a refusal that may mean the page is stale). */
  reloadSupport: () => void
  /** Opens a page in a new tab (the theme editor at the block). */
  openUrl: (url: string) => void
}

/**
 * ウィジェットを追加 and the script tags' 削除 (with its confirmation), one request at a time.
 * ウィジェットを追加 asks the server, which writes the template where the platform lets the app
 * write theme files and otherwise answers the theme editor's deep link, opened here.
 */
export function createThemeActions(deps: ThemeDeps) {
  const { api, ui, dispatch, getState } = deps

  async function addWidget(): Promise<void> {
    const { busy, themeId } = getState()
    if (busy || !themeId) return
    dispatch({ type: 'addStarted' })
    try {
      const result = await api.addWidget(themeId)
      if (result.method === 'themeEditor') {
        // The platform does not let the app write theme files: the theme editor opens at the
        // block, and the card says so; 保存 there adds it.
        dispatch({ type: 'editorChosen', message: result.message })
        if (result.editorUrl) deps.openUrl(result.editorUrl)
        ui.showToast('テーマエディタを開きました。「保存」を押すとウィジェットが追加されます')
        return
      }
      dispatch({ type: 'addFinished', added: true })
      ui.showToast(result.message)
    } catch (error) {
      dispatch({ type: 'addFinished', added: false })
      ui.showToast(errorMessage(error), { error: true })
      // The theme changed meanwhile (edited in the theme editor, another tab): read it again.
      if (error instanceof ApiError && error.status === 409) deps.reloadSupport()
    }
  }

  function confirmDelete(tag: ScriptTag): void {
    if (getState().busy) return
    const cancel = { content: 'キャンセル', onAction: () => ui.closeModal() }
    const primary = {
      content: '削除する',
      destructive: true,
      onAction: async () => {
        ui.updateModal({
          primaryAction: { ...primary, loading: true },
          secondaryActions: [{ ...cancel, disabled: true }],
        })
        dispatch({ type: 'deleteStarted', id: tag.id })
        try {
          await api.deleteScriptTag(tag.id)
          dispatch({ type: 'deleteFinished', id: tag.id, deleted: true })
          ui.closeModal()
          ui.showToast('スクリプトタグを削除しました')
        } catch (error) {
          // Gone already (deleted elsewhere): what the merchant wanted, so it leaves the list too.
          const gone = error instanceof ApiError && error.status === 404
          dispatch({ type: 'deleteFinished', id: tag.id, deleted: gone })
          ui.closeModal()
          ui.showToast(errorMessage(error), { error: !gone })
        }
      },
    }
    ui.openModal({
      title: 'スクリプトタグを削除しますか？',
      body: `${tag.src} をストアから外します。テーマアプリ拡張のウィジェットを使う場合、古いスクリプトタグは不要です。`,
      primaryAction: primary,
      secondaryActions: [cancel],
    })
  }

  return { addWidget, confirmDelete }
}
