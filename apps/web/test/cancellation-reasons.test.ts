import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { CancellationReason, CancellationReasonsGroupedBy } from '@teiki/contract'
import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../src/app/api.ts'
import type { ModalOptions, ToastOptions } from '../src/app/ui-state.tsx'
import {
  GroupedCountsCard,
  ReasonsCard,
} from '../src/features/cancellation-reasons/cancellation-reasons-page.tsx'
import {
  createReasonsActions,
  type ReasonsApi,
} from '../src/features/cancellation-reasons/reasons-actions.ts'
import {
  groupShareLabel,
  initialReasonsState,
  type ReasonsAction,
  type ReasonsState,
  reasonsReducer,
  validateReason,
} from '../src/features/cancellation-reasons/reasons-state.ts'

const price: CancellationReason = { id: '1', reason: '価格が高い', position: 0 }
const quality: CancellationReason = { id: '2', reason: '品質に不満', position: 1 }

/** A server in memory that answers like the real one (trim, 409 on duplicates, 404 on unknown ids). */
function fakeServer(initial: CancellationReason[]) {
  let reasons = initial.map((r) => ({ ...r }))
  let nextId = 10
  const calls: string[] = []
  // While `hold` is set, every mutation waits for it: the test looks at the state mid-flight.
  let hold: Promise<void> | null = null
  const api: ReasonsApi = {
    list: async () => reasons.map((r) => ({ ...r })),
    create: async (reason) => {
      calls.push(`create ${reason}`)
      await hold
      if (reasons.some((r) => r.reason === reason)) {
        throw new ApiError(409, 'CONFLICT', '同じ解約理由がすでに登録されています')
      }
      const created = { id: String(nextId++), reason, position: reasons.length }
      reasons.push(created)
      return created
    },
    update: async (id, reason) => {
      calls.push(`update ${id} ${reason}`)
      await hold
      const found = reasons.find((r) => r.id === id)
      if (!found) throw new ApiError(404, 'NOT_FOUND', '解約理由が見つかりません')
      found.reason = reason
      return { ...found }
    },
    remove: async (id) => {
      calls.push(`remove ${id}`)
      await hold
      if (!reasons.some((r) => r.id === id)) throw new ApiError(404, 'NOT_FOUND', '解約理由が見つかりません')
      reasons = reasons.filter((r) => r.id !== id)
    },
    groupedBy: async () => ({ groups: [], total: 0 }),
  }
  return {
    api,
    calls,
    hold(): () => void {
      let release!: () => void
      hold = new Promise<void>((resolve) => {
        release = resolve
      })
      return () => {
        hold = null
        release()
      }
    },
    failNetwork() {
      api.create = async () => {
        throw new ApiError(0, 'NETWORK', 'サーバーに接続できませんでした')
      }
    },
  }
}

/** The page's flows wired to a reducer-held state and a recording UI. */
async function page(initial: CancellationReason[]) {
  const server = fakeServer(initial)
  let state: ReasonsState = initialReasonsState
  const dispatch = (action: ReasonsAction) => {
    state = reasonsReducer(state, action)
  }
  const toasts: Array<{ message: string; error: boolean }> = []
  let modal: ModalOptions | null = null
  let reloads = 0
  let countReloads = 0
  const actions = createReasonsActions({
    api: server.api,
    ui: {
      showToast: (message: string, options?: ToastOptions) =>
        toasts.push({ message, error: options?.error ?? false }),
      openModal: (options) => {
        modal = options
      },
      updateModal: (patch) => {
        if (modal) modal = { ...modal, ...patch }
      },
      closeModal: () => {
        modal = null
      },
    },
    dispatch,
    getState: () => state,
    reload: () => reloads++,
    onChanged: () => countReloads++,
  })
  dispatch({ type: 'loaded', reasons: await server.api.list() })
  return {
    server,
    actions,
    dispatch,
    toasts,
    get state() {
      return state
    },
    get modal() {
      return modal
    },
    get reloads() {
      return reloads
    },
    get countReloads() {
      return countReloads
    },
    html: () => render(state),
  }
}

const withPolaris = (element: ReactElement) =>
  renderToStaticMarkup(createElement(AppProvider, { i18n: ja }, element))
const noop = () => {}
const render = (state: ReasonsState) =>
  withPolaris(
    createElement(ReasonsCard, {
      state,
      dispatch: noop,
      onAdd: noop,
      onSave: noop,
      onDelete: noop,
      onRetry: noop,
    }),
  )
/** The `<button>` tags whose visible text is `label` (a loading button also reads 読み込み中). */
const buttons = (html: string, label: string) =>
  [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)]
    .filter((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/^読み込み中/, '') === label)
    .map((m) => m[0])
const isDisabled = (button: string) => button.includes('aria-disabled="true"')
/** Every button with the label is disabled (and there is at least one). */
const allDisabled = (html: string, label: string) => {
  const found = buttons(html, label)
  return found.length > 0 && found.every(isDisabled)
}

describe('list', () => {
  it('shows the reasons in position order with edit and delete buttons', async () => {
    const p = await page([quality, price])
    expect(p.state.reasons.map((r) => r.reason)).toEqual(['価格が高い', '品質に不満'])
    const html = p.html()
    expect(html.indexOf('価格が高い')).toBeGreaterThan(-1)
    expect(html.indexOf('価格が高い')).toBeLessThan(html.indexOf('品質に不満'))
    expect(buttons(html, '編集')).toHaveLength(2)
    expect(buttons(html, '削除')).toHaveLength(2)
    expect(buttons(html, '追加')).toHaveLength(1)
    expect(allDisabled(html, '追加')).toBe(false)
    expect(allDisabled(html, '削除')).toBe(false)
  })

  it('shows an empty message, a skeleton while loading and a retry banner on failure', () => {
    expect(render({ ...initialReasonsState, load: { status: 'ready' } })).toContain(
      '解約理由はまだ登録されていません。',
    )
    const loading = render(initialReasonsState)
    expect(loading).not.toContain('まだ登録されていません')
    expect(allDisabled(loading, '追加')).toBe(true)
    const failed = render({
      ...initialReasonsState,
      load: { status: 'error', message: 'サーバーに接続できませんでした' },
    })
    expect(failed).toContain('解約理由を読み込めませんでした')
    expect(failed).toContain('サーバーに接続できませんでした')
    expect(buttons(failed, '再試行')).toHaveLength(1)
  })
})

describe('add', () => {
  it('adds the trimmed text, disables the buttons while in flight, clears the field, toasts', async () => {
    const p = await page([price])
    p.dispatch({ type: 'draftChanged', text: '  配送が遅い ' })
    const release = p.server.hold()
    const adding = p.actions.add()
    expect(p.state.busy).toEqual({ kind: 'add' })
    const busyHtml = p.html()
    for (const label of ['追加', '編集', '削除']) {
      expect(allDisabled(busyHtml, label), label).toBe(true)
    }
    expect(busyHtml).toContain('aria-busy="true"')
    // A second click while the first is in flight sends nothing.
    await p.actions.add()
    release()
    await adding
    expect(p.server.calls).toEqual(['create 配送が遅い'])
    expect(p.state.reasons.map((r) => r.reason)).toEqual(['価格が高い', '配送が遅い'])
    expect(p.state.draft).toBe('')
    expect(p.state.busy).toBeNull()
    expect(p.toasts).toEqual([{ message: '解約理由を追加しました', error: false }])
    expect(p.html()).toContain('配送が遅い')
  })

  it.each([
    ['', '解約理由を入力してください'],
    ['   ', '解約理由を入力してください'],
    ['あ'.repeat(201), '解約理由は200文字以内で入力してください'],
    [' 価格が高い ', '同じ解約理由がすでに登録されています'],
  ])('shows %j’s validation error under the field without a request', async (text, message) => {
    const p = await page([price])
    p.dispatch({ type: 'draftChanged', text })
    await p.actions.add()
    expect(p.server.calls).toEqual([])
    expect(p.state.addError).toBe(message)
    expect(p.html()).toContain(message)
    expect(p.toasts).toEqual([])
    // Typing again clears the error.
    p.dispatch({ type: 'draftChanged', text: 'x' })
    expect(p.html()).not.toContain(message)
  })

  it('shows the server’s refusal under the field, and other failures in an error toast', async () => {
    const p = await page([price])
    // Another tab added the same text after this page loaded: the server answers 409.
    await p.server.api.create('解約済み')
    p.server.calls.length = 0
    p.dispatch({ type: 'draftChanged', text: '解約済み' })
    await p.actions.add()
    expect(p.server.calls).toEqual(['create 解約済み'])
    expect(p.state.addError).toBe('同じ解約理由がすでに登録されています')
    expect(p.html()).toContain('同じ解約理由がすでに登録されています')
    expect(p.state.draft).toBe('解約済み')

    p.server.failNetwork()
    p.dispatch({ type: 'draftChanged', text: '別の理由' })
    await p.actions.add()
    expect(p.state.addError).toBeNull()
    expect(p.state.busy).toBeNull()
    expect(p.toasts).toEqual([{ message: 'サーバーに接続できませんでした', error: true }])
  })
})

describe('inline edit', () => {
  it('renames a reason and reloads the counts', async () => {
    const p = await page([price, quality])
    p.dispatch({ type: 'editStarted', id: '2' })
    expect(p.state.editing).toEqual({ id: '2', text: '品質に不満', error: null })
    const html = p.html()
    expect(buttons(html, '保存')).toHaveLength(1)
    // Only one reason at a time: the other edit button is disabled.
    expect(allDisabled(html, '編集')).toBe(true)
    expect(allDisabled(html, '削除')).toBe(false)
    p.dispatch({ type: 'editChanged', text: ' 品質が悪い ' })
    await p.actions.save()
    expect(p.server.calls).toEqual(['update 2 品質が悪い'])
    expect(p.state.editing).toBeNull()
    expect(p.state.reasons.map((r) => r.reason)).toEqual(['価格が高い', '品質が悪い'])
    expect(p.toasts).toEqual([{ message: '解約理由を更新しました', error: false }])
    expect(p.countReloads).toBe(1)
  })

  it('keeps the field open with the error for blank or duplicate text', async () => {
    const p = await page([price, quality])
    p.dispatch({ type: 'editStarted', id: '2' })
    p.dispatch({ type: 'editChanged', text: '価格が高い' })
    await p.actions.save()
    expect(p.state.editing?.error).toBe('同じ解約理由がすでに登録されています')
    expect(p.html()).toContain('同じ解約理由がすでに登録されています')
    p.dispatch({ type: 'editChanged', text: '' })
    await p.actions.save()
    expect(p.state.editing?.error).toBe('解約理由を入力してください')
    expect(p.server.calls).toEqual([])
  })
})

describe('delete', () => {
  it('asks first, deletes only on confirm, then toasts and reloads the counts', async () => {
    const p = await page([price, quality])
    p.actions.confirmDelete(price)
    expect(p.server.calls).toEqual([])
    const modal = p.modal!
    expect(modal.title).toBe('解約理由を削除しますか？')
    expect(modal.body).toContain('「価格が高い」')
    expect(modal.primaryAction).toMatchObject({ content: '削除する', destructive: true })

    const release = p.server.hold()
    modal.primaryAction.onAction()
    await Promise.resolve()
    expect(p.modal?.primaryAction).toMatchObject({ loading: true, disabled: true })
    expect(p.modal?.secondaryActions?.[0]).toMatchObject({ content: 'キャンセル', disabled: true })
    expect(p.state.busy).toEqual({ kind: 'delete', id: '1' })
    modal.primaryAction.onAction() // a double click sends one request
    release()
    await new Promise((resolve) => setTimeout(resolve, 0))

    expect(p.server.calls).toEqual(['remove 1'])
    expect(p.modal).toBeNull()
    expect(p.state.reasons.map((r) => r.id)).toEqual(['2'])
    expect(p.toasts).toEqual([{ message: '解約理由を削除しました', error: false }])
    expect(p.countReloads).toBe(1)
    expect(p.html()).not.toContain('「価格が高い」を削除')
    expect(p.html()).toContain('「品質に不満」を削除')
  })

  it('cancel closes the modal and deletes nothing', async () => {
    const p = await page([price])
    p.actions.confirmDelete(price)
    p.modal!.secondaryActions![0]!.onAction()
    expect(p.modal).toBeNull()
    expect(p.server.calls).toEqual([])
    expect(p.state.reasons).toHaveLength(1)
  })

  it('a reason deleted elsewhere: error toast and the list is reloaded', async () => {
    const p = await page([price])
    await p.server.api.remove('1')
    p.server.calls.length = 0
    p.actions.confirmDelete(price)
    p.modal!.primaryAction.onAction()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(p.toasts).toEqual([{ message: '解約理由が見つかりません', error: true }])
    expect(p.state.busy).toBeNull()
    expect(p.reloads).toBe(1)
  })
})

describe('理由ごとの解約数', () => {
  const data: CancellationReasonsGroupedBy = {
    groups: [
      { reasonId: '1', reason: '価格が高い', count: 4 },
      { reasonId: null, reason: '転居', count: 2 },
      { reasonId: '2', reason: '品質に不満', count: 1 },
    ],
    total: 7,
  }

  it('lists every group with its count and share, and the total', () => {
    const html = withPolaris(
      createElement(GroupedCountsCard, { state: { status: 'ready', data }, onRetry: noop }),
    )
    expect(html).toContain('理由ごとの解約数')
    expect(html).toContain('価格が高い')
    expect(html).toContain('転居（自由記述）')
    expect(html).toContain('4件')
    expect(html).toContain('57.1%')
    expect(html).toContain('14.3%')
    expect(html).toContain('7件')
  })

  it('says so when nothing is recorded', () => {
    const html = withPolaris(
      createElement(GroupedCountsCard, {
        state: { status: 'ready', data: { groups: [], total: 0 } },
        onRetry: noop,
      }),
    )
    expect(html).toContain('理由が記録された解約はまだありません。')
  })

  it.each([
    [4, 7, '57.1%'],
    [1, 3, '33.3%'],
    [3, 3, '100.0%'],
    [0, 0, '—'],
  ])('share of %i in %i is %s', (count, total, expected) => {
    expect(groupShareLabel(count, total)).toBe(expected)
  })
})

describe('validateReason', () => {
  it('trims and allows the reason’s own text when renaming', () => {
    expect(validateReason(' 価格が高い ', [price], '1')).toEqual({ ok: true, reason: '価格が高い' })
    expect(validateReason('あ'.repeat(200), [])).toMatchObject({ ok: true })
  })
})
