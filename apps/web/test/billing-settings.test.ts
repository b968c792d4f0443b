import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import { type BillingSettings, DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { httpBillingApi } from '../src/features/billing/billing-api.ts'
import { BillingSettingsView, DUNNING_EXPLANATION } from '../src/features/billing/billing-settings-page.tsx'
import { createSettingsActions } from '../src/features/billing/settings-actions.ts'
import {
  HOUR_OPTIONS,
  initialSettingsState,
  isDirty,
  type SettingsAction,
  type SettingsField,
  type SettingsState,
  settingsReducer,
  validateSettings,
} from '../src/features/billing/settings-state.ts'
import { failure, json, mockFetch } from './support/fetch-mock.ts'

/** What the shop has stored: not the defaults, so a save that sent defaults would show. */
const stored: BillingSettings = {
  ...DEFAULT_BILLING_SETTINGS,
  billingHour: 9,
  lookbackDays: 3,
  retryAttempts: 2,
  finalAction: 'PAUSE',
  deliveryPrepDays: 4,
}

const http = mockFetch()
const calls = http.calls
const answer = http.answer
/** Lets the mocked fetch and the promise chains after it settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The page's flows on the real HTTP client (fetch mocked), a reducer-held state and a recording UI. */
async function page(initial: BillingSettings = stored) {
  let state: SettingsState = initialSettingsState
  const dispatch = (action: SettingsAction) => {
    state = settingsReducer(state, action)
  }
  const toasts: Array<{ message: string; error: boolean }> = []
  const actions = createSettingsActions({
    api: httpBillingApi,
    ui: { showToast: (message, options) => toasts.push({ message, error: options?.error ?? false }) },
    dispatch,
    getState: () => state,
  })
  answer(json(200, initial))
  actions.load()
  await settle()
  return {
    actions,
    toasts,
    set: (field: SettingsField, value: string) => dispatch({ type: 'fieldChanged', field, value }),
    dispatch,
    get state() {
      return state
    },
    html: () => render(state),
  }
}

const noop = () => {}
const render = (state: SettingsState) =>
  renderToStaticMarkup(
    createElement(
      AppProvider,
      { i18n: ja },
      createElement(BillingSettingsView, { state, dispatch: noop, onSave: noop, onRetry: noop }),
    ),
  )
/** The HTML from the element carrying `data-testid` up to the next test id (that field's part). */
const fieldHtml = (html: string, testId: string) => {
  const start = html.indexOf(`data-testid="${testId}"`)
  expect(start, testId).toBeGreaterThan(-1)
  const next = html.indexOf('data-testid=', start + 1)
  return html.slice(start, next === -1 ? undefined : next)
}
const saveButton = (html: string) => /<button[^>]*>/.exec(fieldHtml(html, 'billing-settings-save'))![0]
const isDisabled = (button: string) => button.includes('aria-disabled="true"')
const options = (html: string, testId: string) =>
  [...fieldHtml(html, testId).matchAll(/<option value="([^"]*)"([^>]*)>([^<]*)<\/option>/g)].map((m) => ({
    value: m[1],
    label: m[3],
    selected: m[2]!.includes('selected'),
  }))
const selectedOption = (html: string, testId: string) => {
  const found = options(html, testId).filter((option) => option.selected)
  return found.length === 1 ? [found[0]!.value, found[0]!.label] : found
}
const inputValue = (html: string, testId: string) =>
  /<input[^>]*value="([^"]*)"/.exec(fieldHtml(html, testId))?.[1]

describe('load', () => {
  it('GETs /app-admin/billing-settings and shows every value, the save button disabled', async () => {
    const p = await page()
    expect(calls()).toEqual([expect.objectContaining({ url: '/app-admin/billing-settings', method: 'GET' })])
    expect(p.state.load).toEqual({ status: 'ready' })
    expect(p.state.saved).toEqual(stored)
    const html = p.html()
    expect(html).toContain('請求・再試行の設定')
    for (const section of ['請求', '決済失敗時の再試行', '在庫切れ時の再試行', 'お届け']) {
      expect(html).toContain(`>${section}</h2>`)
    }
    expect(html).toContain(DUNNING_EXPLANATION)
    expect(selectedOption(html, 'billing-hour-select')).toEqual(['9', '9:00'])
    expect(selectedOption(html, 'final-action-select')).toEqual(['PAUSE', '一時停止'])
    expect(selectedOption(html, 'inventory-final-action-select')).toEqual(['SKIP', 'スキップ（次回へ）'])
    expect(inputValue(html, 'retry-attempts-input')).toBe('2')
    expect(inputValue(html, 'lookback-days-input')).toBe('3')
    expect(inputValue(html, 'delivery-prep-days-input')).toBe('4')
    // Nothing changed yet: nothing to save.
    expect(isDirty(p.state)).toBe(false)
    expect(isDisabled(saveButton(html))).toBe(true)
  })

  it('offers the hours 0:00–23:00 and the three final actions', () => {
    expect(HOUR_OPTIONS).toHaveLength(24)
    expect(HOUR_OPTIONS[0]).toEqual({ label: '0:00', value: '0' })
    expect(HOUR_OPTIONS[10]).toEqual({ label: '10:00', value: '10' })
    expect(HOUR_OPTIONS[23]).toEqual({ label: '23:00', value: '23' })
    const html = render(settingsReducer(initialSettingsState, { type: 'loaded', settings: stored }))
    expect(options(html, 'final-action-select').map((o) => [o.value, o.label])).toEqual([
      ['CANCEL', '解約'],
      ['PAUSE', '一時停止'],
      ['SKIP', 'スキップ（次回へ）'],
    ])
    expect(options(html, 'billing-hour-select').map((o) => o.label)).toEqual(HOUR_OPTIONS.map((o) => o.label))
  })

  it('says when there are unsaved changes (the leave guard watches the same isDirty)', () => {
    const loaded = settingsReducer(initialSettingsState, { type: 'loaded', settings: stored })
    expect(render(loaded)).not.toContain('未保存の変更があります')
    const changed = settingsReducer(loaded, { type: 'fieldChanged', field: 'lookbackDays', value: '5' })
    expect(render(changed)).toContain('data-testid="billing-settings-unsaved"')
    expect(render(changed)).toContain('未保存の変更があります')
    // Typed back to the stored value: nothing to save, nothing to warn about.
    const back = settingsReducer(changed, {
      type: 'fieldChanged',
      field: 'lookbackDays',
      value: String(stored.lookbackDays),
    })
    expect(render(back)).not.toContain('未保存の変更があります')
  })

  it('shows a skeleton while loading and a retry banner with the server message on failure', async () => {
    const loading = render(initialSettingsState)
    expect(loading).not.toContain('data-testid="retry-attempts-input"')
    expect(loading).toContain('Polaris-SkeletonBodyText')
    expect(isDisabled(saveButton(loading))).toBe(true)

    answer(failure(500, 'INTERNAL', '設定を読み込めませんでした。時間をおいてお試しください'))
    let state = initialSettingsState
    createSettingsActions({
      api: httpBillingApi,
      ui: { showToast: noop },
      dispatch: (action) => {
        state = settingsReducer(state, action)
      },
      getState: () => state,
    }).load()
    await settle()
    expect(state.load).toEqual({
      status: 'error',
      message: '設定を読み込めませんでした。時間をおいてお試しください',
    })
    const failed = render(state)
    expect(failed).toContain('請求の設定を読み込めませんでした')
    expect(failed).toContain('設定を読み込めませんでした。時間をおいてお試しください')
    expect(failed).toMatch(/<button[^>]*>(<[^>]+>)*再試行</)
  })

  it('an answer that is not the settings is an error, not a form of blanks', async () => {
    answer(json(200, { billingHour: 10 }))
    await expect(httpBillingApi.getSettings()).rejects.toThrow('サーバーの応答を読み取れませんでした')
  })
})

describe('validation', () => {
  it.each([
    ['retryAttempts', '11', '再試行回数は10以下で指定してください', 'retry-attempts-input'],
    ['retryAttempts', '', '再試行回数を数値で指定してください', 'retry-attempts-input'],
    ['retryAttempts', '1.5', '再試行回数は整数で指定してください', 'retry-attempts-input'],
    ['retryAttempts', 'abc', '再試行回数を数値で指定してください', 'retry-attempts-input'],
    ['retryIntervalDays', '0', '再試行の間隔は1以上で指定してください', 'retry-interval-input'],
    ['lookbackDays', '15', 'さかのぼる日数は14以下で指定してください', 'lookback-days-input'],
    [
      'inventoryRetryIntervalDays',
      '15',
      '在庫切れ時の再試行の間隔は14以下で指定してください',
      'inventory-retry-interval-input',
    ],
    ['deliveryPrepDays', '-1', 'お届け準備期間は0以上で指定してください', 'delivery-prep-days-input'],
    [
      'finalAction',
      'DELETE',
      '最終処理は 解約・一時停止・スキップ のいずれかを指定してください',
      'final-action-select',
    ],
  ] as const)(
    '%s = %j is refused with “%s” under the field and sends nothing',
    async (field, value, message, testId) => {
      const p = await page()
      http.fetch.mockClear()
      p.set(field, value)
      expect(isDirty(p.state)).toBe(true)
      await p.actions.save()
      expect(http.fetch).not.toHaveBeenCalled()
      expect(p.state.errors).toEqual({ [field]: message })
      expect(p.state.saving).toBe(false)
      expect(p.toasts).toEqual([])
      const html = p.html()
      // The message is rendered under that field, inside its own wrapper.
      expect(fieldHtml(html, testId)).toContain(message)
      expect(html.split(message)).toHaveLength(2)
      // Changing the field again clears its message.
      p.set(field, field === 'finalAction' ? 'CANCEL' : '1')
      expect(p.state.errors).toEqual({})
      expect(p.html()).not.toContain(message)
    },
  )

  it('shows each wrong field’s first message; the first issue is the overall message', () => {
    const base = settingsReducer(initialSettingsState, { type: 'loaded', settings: stored }).draft
    const checked = validateSettings({ ...base, retryAttempts: '99', deliveryPrepDays: '31' })
    expect(checked).toEqual({
      ok: false,
      errors: {
        retryAttempts: '再試行回数は10以下で指定してください',
        deliveryPrepDays: 'お届け準備期間は30以下で指定してください',
      },
      message: '再試行回数は10以下で指定してください',
    })
  })

  it('reads full-width digits and surrounding spaces as the number typed', () => {
    const base = settingsReducer(initialSettingsState, { type: 'loaded', settings: stored }).draft
    expect(validateSettings({ ...base, retryAttempts: ' ５ ', lookbackDays: '１４' })).toEqual({
      ok: true,
      settings: { ...stored, retryAttempts: 5, lookbackDays: 14 },
    })
  })
})

describe('save', () => {
  it('PUTs the whole object, toasts 「設定を保存しました」 and is clean again', async () => {
    const p = await page()
    http.fetch.mockClear()
    p.set('billingHour', '3')
    p.set('retryAttempts', '5')
    p.set('inventoryFinalAction', 'CANCEL')
    expect(isDisabled(saveButton(p.html()))).toBe(false)
    const sent = { ...stored, billingHour: 3, retryAttempts: 5, inventoryFinalAction: 'CANCEL' }
    answer(json(200, sent))
    await p.actions.save()
    expect(calls()).toEqual([
      {
        url: '/app-admin/billing-settings',
        method: 'PUT',
        body: sent,
        headers: expect.objectContaining({ 'Content-Type': 'application/json' }),
      },
    ])
    // Every field travels, not only the changed ones.
    expect(Object.keys(calls()[0]!.body as object).sort()).toEqual(
      Object.keys(DEFAULT_BILLING_SETTINGS).sort(),
    )
    expect(p.toasts).toEqual([{ message: '設定を保存しました', error: false }])
    expect(p.state.saved).toEqual(sent)
    expect(isDirty(p.state)).toBe(false)
    const html = p.html()
    expect(selectedOption(html, 'billing-hour-select')).toEqual(['3', '3:00'])
    expect(isDisabled(saveButton(html))).toBe(true)
  })

  it('disables the save button while the request is in flight; a second click sends nothing', async () => {
    const p = await page()
    http.fetch.mockClear()
    p.set('deliveryPrepDays', '7')
    let respond!: (response: Response) => void
    http.fetch.mockImplementationOnce(() => new Promise<Response>((resolve) => (respond = resolve)))
    const saving = p.actions.save()
    await settle()
    expect(p.state.saving).toBe(true)
    const busy = saveButton(p.html())
    expect(isDisabled(busy)).toBe(true)
    expect(busy).toContain('aria-busy="true"')
    await p.actions.save()
    respond(json(200, { ...stored, deliveryPrepDays: 7 }))
    await saving
    expect(http.fetch).toHaveBeenCalledTimes(1)
    expect(p.state.saving).toBe(false)
    expect(p.toasts).toEqual([{ message: '設定を保存しました', error: false }])
  })

  it('a refused save shows the server’s message in an error toast and keeps the edits', async () => {
    const p = await page()
    p.set('retryIntervalDays', '10')
    answer(failure(400, 'VALIDATION', '再試行の間隔は14以下で指定してください'))
    await p.actions.save()
    expect(p.toasts).toEqual([{ message: '再試行の間隔は14以下で指定してください', error: true }])
    expect(p.state.saving).toBe(false)
    expect(p.state.saved).toEqual(stored)
    expect(p.state.draft.retryIntervalDays).toBe('10')
    expect(isDisabled(saveButton(p.html()))).toBe(false)
  })

  it('an empty answer keeps what was sent as the saved settings', async () => {
    const p = await page()
    p.set('lookbackDays', '0')
    http.fetch.mockResolvedValueOnce(new Response(null, { status: 204 }))
    await p.actions.save()
    expect(p.state.saved).toEqual({ ...stored, lookbackDays: 0 })
    expect(isDirty(p.state)).toBe(false)
  })

  it('changing a value back, or writing it as 03, leaves nothing to save; 変更を破棄 restores', async () => {
    const p = await page()
    p.set('retryAttempts', '7')
    expect(isDirty(p.state)).toBe(true)
    p.set('retryAttempts', '02')
    expect(isDirty(p.state)).toBe(false)
    p.set('finalAction', 'SKIP')
    p.set('lookbackDays', '')
    expect(isDirty(p.state)).toBe(true)
    p.dispatch({ type: 'discarded' })
    expect(p.state.draft.finalAction).toBe('PAUSE')
    expect(p.state.draft.lookbackDays).toBe('3')
    expect(isDirty(p.state)).toBe(false)
  })
})
