import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { MyPageSettingsBody, MyPageSettingsResponse } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { api } from '../src/app/api.ts'
import type { ApiState } from '../src/app/use-api.ts'
import { LOCK_DAYS_HELP, MyPageSettingsView } from '../src/features/settings/my-page-settings-card.tsx'
import {
  type MyPageDraft,
  selectedActions,
  toMyPageDraft,
  toMyPageSettings,
  withSelectedActions,
} from '../src/features/settings/my-page-settings-form.ts'
import { saveMyPageSettings } from '../src/features/settings/use-my-page-settings-form.ts'
import { answered, failed } from './support/api-state.ts'
import { failure, json, mockFetch } from './support/fetch-mock.ts'

const http = mockFetch()

/** What the shop has stored: カード情報の更新メール off and a lock of 3 days (not all defaults). */
const stored: MyPageSettingsBody = {
  actions: {
    skip: true,
    pause: true,
    resume: true,
    date: true,
    quantity: true,
    swap: true,
    address: true,
    slot: true,
    cardMail: false,
    cancel: true,
  },
  lockDays: 3,
}

/** The card as the hook would give it: loaded, this draft, nothing in flight. */
const render = (
  load: ApiState<MyPageSettingsResponse>,
  draft: MyPageDraft | null,
  extra: { problem?: string; dirty?: boolean } = {},
) => {
  const form = {
    load,
    draft,
    dirty: extra.dirty ?? false,
    saving: false,
    problem: extra.problem ?? null,
    save: async () => {},
    discard: () => {},
    change: () => {},
  }
  return renderToStaticMarkup(
    createElement(AppProvider, { i18n: ja }, createElement(MyPageSettingsView, { form })),
  )
}
const checkboxes = (html: string) =>
  [...html.matchAll(/<input[^>]*type="checkbox"[^>]*>/g)].map((m) => m[0].includes('checked=""'))
const saveButton = (html: string) =>
  [...html.matchAll(/<button[^>]*>(.*?)<\/button>/g)].find((m) =>
    m[1]!.includes('マイページの設定を保存'),
  )![0]

describe('設定 › マイページ: load', () => {
  it('GETs /app-admin/my-page-settings and shows a checkbox per change, the lock and its help', async () => {
    http.answer(json(200, { settings: stored }))
    const data = await api('GET /my-page-settings')
    expect(http.calls()).toEqual([
      expect.objectContaining({ url: '/app-admin/my-page-settings', method: 'GET' }),
    ])
    const html = render(answered(data), toMyPageDraft(data.settings))
    for (const label of [
      'お客様がマイページでできること',
      '次回のお届けのスキップ',
      'お休み（一時停止）',
      '再開',
      '次回のご注文日の変更',
      '数量の変更',
      '商品の変更',
      'お届け先の変更',
      '配送時間帯の変更',
      'カード情報の更新メール',
      '解約',
      '変更受付の締切',
      '日前まで',
    ]) {
      expect(html, label).toContain(label)
    }
    expect(html).toContain(LOCK_DAYS_HELP)
    // Ten checkboxes in the page's order: only カード情報の更新メール (9th) is off.
    expect(checkboxes(html)).toEqual([true, true, true, true, true, true, true, true, false, true])
    expect(html).toMatch(/<input[^>]*type="number"[^>]*value="3"/)
    // Nothing changed: nothing to save.
    expect(saveButton(html)).toContain('aria-disabled="true"')
    expect(saveButton(render(answered(data), toMyPageDraft(data.settings), { dirty: true }))).not.toContain(
      'aria-disabled="true"',
    )
  })

  it('shows the skeleton while loading and the server’s message with 再試行 when it failed', () => {
    const loading = render(
      { data: undefined, error: undefined, isLoading: true, isValidating: true, retry: () => {} },
      null,
    )
    expect(loading).not.toContain('変更受付の締切')
    const error = render(failed('サーバーに接続できませんでした'), null)
    expect(error).toContain('マイページの設定を読み込めませんでした')
    expect(error).toContain('サーバーに接続できませんでした')
    expect(error).toContain('再試行')
  })
})

describe('設定 › マイページ: save', () => {
  it('a switch turned off and a new lock are sent as PUT /my-page-settings', async () => {
    const draft = withSelectedActions(
      toMyPageDraft(stored),
      selectedActions(toMyPageDraft(stored)).filter((a) => a !== 'pause'),
    )
    const sent = { actions: { ...stored.actions, pause: false }, lockDays: 5 }
    http.answer(json(200, { settings: sent }))
    const result = await saveMyPageSettings({ ...draft, lockDays: ' 5 ' })
    expect(http.calls()).toEqual([
      expect.objectContaining({ url: '/app-admin/my-page-settings', method: 'PUT', body: sent }),
    ])
    expect(result).toEqual({ saved: { settings: sent } })
    // The stored settings are the draft again: nothing left to save.
    expect(toMyPageDraft(sent)).toEqual({ ...draft, lockDays: '5' })
  })

  it('shows the server’s 400 message in the card', async () => {
    const message = '変更受付の締切は日数（整数）で指定してください'
    http.answer(failure(400, 'VALIDATION', message))
    const result = await saveMyPageSettings(toMyPageDraft(stored))
    expect(result).toEqual({ problem: message })
    const html = render(answered({ settings: stored }), toMyPageDraft(stored), {
      problem: message,
      dirty: true,
    })
    expect(html).toContain('data-testid="my-page-settings-problem"')
    expect(html).toContain(message)
  })

  it.each([
    ['31', '変更受付の締切は0〜30日前で指定してください'],
    ['-1', '変更受付の締切は0〜30日前で指定してください'],
    ['1.5', '変更受付の締切は日数（整数）で指定してください'],
    ['', '変更受付の締切（日数）を数字で指定してください'],
  ])('a lock of %j is refused before any request: %s', async (lockDays, problem) => {
    expect(await saveMyPageSettings({ ...toMyPageDraft(stored), lockDays })).toEqual({ problem })
    expect(http.calls()).toEqual([])
  })

  it('0 days (until the day before) and 30 days are accepted', () => {
    expect(toMyPageSettings({ ...toMyPageDraft(stored), lockDays: '0' })).toEqual({
      body: { ...stored, lockDays: 0 },
    })
    expect(toMyPageSettings({ ...toMyPageDraft(stored), lockDays: '30' })).toMatchObject({
      body: { lockDays: 30 },
    })
  })
})
