import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { BillingRun } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { httpBillingApi } from '../src/features/billing/billing-api.ts'
import { RecentRunsCard } from '../src/features/billing/recent-runs-card.tsx'
import {
  RECENT_RUNS,
  type RunsState,
  runBadge,
  runSummary,
  triggerLabel,
} from '../src/features/billing/runs-format.ts'
import { json, mockFetch } from './support/fetch-mock.ts'

const run = (overrides: Partial<BillingRun> = {}): BillingRun => ({
  id: '12',
  shop: 'teiki-demo.myshopify.com',
  now: '2026-11-22T01:00:00.000Z',
  due: 21,
  attempted: 21,
  succeeded: 18,
  failed: 3,
  skipped: 0,
  alreadyBilled: 0,
  trigger: 'schedule',
  startedAt: '2026-11-22T01:00:02.000Z',
  finishedAt: '2026-11-22T01:00:09.000Z',
  abortedAt: null,
  error: null,
  ...overrides,
})

const http = mockFetch()
afterEach(() => vi.restoreAllMocks())

describe('runBadge', () => {
  it.each<[string, Partial<BillingRun>, string, string]>([
    ['every outcome in', {}, '完了', 'success'],
    ['outcomes still arriving', { succeeded: 10, failed: 1 }, '結果待ち', 'attention'],
    ['not finished', { finishedAt: null }, '実行中', 'info'],
    ['stopped by an error', { error: 'platform unavailable', finishedAt: null }, 'エラー', 'critical'],
    ['nothing due', { due: 0, attempted: 0, succeeded: 0, failed: 0 }, '完了', 'success'],
    [
      'its process stopped mid-way',
      {
        abortedAt: '2026-11-22T01:03:00.000Z',
        error: '請求実行のプロセスが途中で停止したため中断しました。',
      },
      '中断',
      'warning',
    ],
  ])('%s → %s', (_name, overrides, label, tone) => {
    expect(runBadge(run(overrides))).toEqual({ label, tone })
  })
})

describe('labels', () => {
  it('names who started the run', () => {
    expect([
      triggerLabel('schedule'),
      triggerLabel('cli'),
      triggerLabel('manual'),
      triggerLabel('resume'),
    ]).toEqual(['自動', 'コマンド', '手動', '再開'])
  })

  it('sums a run up, mentioning skipped and already billed only when there are some', () => {
    expect(runSummary(run())).toBe('対象 21件・請求 21件・成功 18件・失敗 3件')
    expect(runSummary(run({ skipped: 2, alreadyBilled: 5 }))).toBe(
      '対象 21件・請求 21件・成功 18件・失敗 3件・見送り 2件・請求済み 5件',
    )
  })
})

describe('request', () => {
  it(`GETs the latest ${RECENT_RUNS} runs and refuses an answer of the wrong shape`, async () => {
    http.fetch.mockResolvedValueOnce(json(200, { runs: [run()] }))
    expect(await httpBillingApi.runs(RECENT_RUNS)).toEqual([run()])
    expect(http.fetch.mock.calls[0]![0]).toBe('/app-admin/billing/runs?limit=10')
    http.fetch.mockResolvedValueOnce(json(200, { runs: [{ id: 1 }] }))
    await expect(httpBillingApi.runs(RECENT_RUNS)).rejects.toThrow('サーバーの応答を読み取れませんでした')
  })
})

const render = (state: RunsState) =>
  renderToStaticMarkup(
    createElement(AppProvider, { i18n: ja }, createElement(RecentRunsCard, { state, onRetry: () => {} })),
  )
/** The visible text (Polaris badges also carry their tone as visually hidden text). */
const text = (html: string) =>
  html
    .replace(/<span class="[^"]*visuallyHidden">[^<]*<\/span>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')

describe('最近の請求実行', () => {
  it('lists each run with its Japan-time date, trigger, counts and status', () => {
    const html = render({
      status: 'success',
      runs: [
        run(),
        run({ id: '11', trigger: 'cli', startedAt: '2026-11-21T15:30:00.000Z', succeeded: 1, failed: 0 }),
      ],
    })
    const shown = text(html)
    expect(shown).toContain('最近の請求実行')
    expect(shown).toContain('2026年11月22日 10:00 自動 21 21 18 3 完了')
    // 15:30 UTC is past midnight in Tokyo: the 22nd.
    expect(shown).toContain('2026年11月22日 0:30 コマンド 21 21 1 0 結果待ち')
  })

  it('shows a run whose process stopped as 中断 with why, and the run that resumed it as 再開', () => {
    const why = '請求実行のプロセスが途中で停止したため中断しました。残りの請求は再開した実行が行います。'
    const html = render({
      status: 'success',
      runs: [
        run({ id: '13', trigger: 'resume', startedAt: '2026-11-22T01:04:00.000Z', due: 9, attempted: 9 }),
        run({ abortedAt: '2026-11-22T01:03:30.000Z', error: why, attempted: 12, succeeded: 12, failed: 0 }),
      ],
    })
    const shown = text(html)
    expect(shown).toContain('2026年11月22日 10:04 再開 9 9 18 3 完了')
    expect(shown).toContain('2026年11月22日 10:00 自動 21 12 12 0 中断')
    expect(shown).not.toContain('実行中')
    expect(html).toContain(`title="${why}"`)
  })

  it('says when nothing has run yet, and shows a retry on an error', () => {
    expect(text(render({ status: 'success', runs: [] }))).toContain('まだ請求は実行されていません。')
    const failed = text(render({ status: 'error', message: 'サーバーに接続できませんでした' }))
    expect(failed).toContain('請求実行の履歴を読み込めませんでした')
    expect(failed).toContain('サーバーに接続できませんでした')
    expect(failed).toContain('再試行')
  })
})
