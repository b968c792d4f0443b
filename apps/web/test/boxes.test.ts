import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { Box } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { ApiError } from '../src/app/api.ts'
import { boxDraftOf, changedFields, savedMessage, saveFields } from '../src/features/boxes/box-draft.ts'
import { BoxListBody, selectionRange } from '../src/features/boxes/box-list-page.tsx'
import { answered, failed } from './support/api-state.ts'

const stored: Box = {
  id: '7',
  name: '選べる詰め合わせ',
  minSelection: 2,
  maxSelection: 3,
  sellingPlanGroupId: '42',
  sellingPlanGroup: { id: '42', name: '詰め合わせ', productsCount: 6 },
  problems: {},
  complete: true,
  createdAt: '2026-11-20T00:00:00Z',
  updatedAt: '2026-11-24T15:30:00Z',
}

describe('saving a box field by field (spec §4)', () => {
  it('orders the changed fields so each saves alone', () => {
    expect(changedFields(stored, { ...boxDraftOf(stored), minSelection: '5', maxSelection: '6' })).toEqual([
      'maxSelection',
      'minSelection',
    ])
    expect(changedFields(stored, boxDraftOf(stored))).toEqual([])
  })

  it('saves each field in its own PUT; a refused field keeps its error and the others are saved', async () => {
    const update = vi.fn(async (_id: string, body: Record<string, unknown>) => {
      if ('minSelection' in body) throw new ApiError(400, 'INVALID_INPUT', 'サーバーが拒否しました')
      return { ...stored, ...body } as Box
    })
    const draft = { ...boxDraftOf(stored), name: '新しい名前', maxSelection: '9', minSelection: '1' }
    const result = await saveFields({ update }, stored, draft, 6)
    // max 9 > 6 products: refused before any request; name saved; min refused by the server.
    expect(update.mock.calls.map((c) => c[1])).toEqual([{ name: '新しい名前' }, { minSelection: 1 }])
    expect(result.saved).toEqual(['name'])
    expect(result.errors).toEqual({
      maxSelection: '最大選択数は販売プランの商品数（6件）以下にしてください',
      minSelection: 'サーバーが拒否しました',
    })
    expect(result.box.name).toBe('新しい名前')
    expect(savedMessage(['name', 'maxSelection'])).toBe('ボックス名・最大選択数を保存しました')
  })

  it('reads full-width digits and refuses an emptied field before sending', async () => {
    const update = vi.fn(
      async (_id: string, body: Record<string, unknown>) => ({ ...stored, ...body }) as Box,
    )
    const result = await saveFields(
      { update },
      stored,
      { ...boxDraftOf(stored), maxSelection: '４', name: ' ' },
      6,
    )
    expect(update.mock.calls.map((c) => c[1])).toEqual([{ maxSelection: 4 }])
    expect(result.errors).toEqual({ name: 'ボックス名を入力してください' })
  })
})

describe('the box list', () => {
  const render = (state: Parameters<typeof BoxListBody>[0]['state']) =>
    renderToStaticMarkup(
      createElement(AppProvider, { i18n: ja }, createElement(BoxListBody, { state, onCreate: () => {} })),
    )

  it('shows the range, the group, the state and the date in Japanese', () => {
    const html = render(
      answered({
        boxes: [
          stored,
          { ...stored, id: '8', minSelection: 3, maxSelection: 3, complete: false, sellingPlanGroup: null },
        ],
        total: 2,
        page: 1,
      }),
    )
    expect(html).toContain('選べる詰め合わせ')
    expect(html).toContain('2〜3品')
    expect(html).toMatch(/>3品</)
    expect(html).toContain('設定済み')
    expect(html).toContain('未完成')
    expect(html).toContain('未設定')
    // The shop's day (Japan time): 15:30 UTC on the 24th is the 25th.
    expect(html).toContain('2026年11月25日')
    expect(selectionRange({ minSelection: null, maxSelection: 3 })).toBe('未設定')
  })

  it('has an empty state and an error state with retry', () => {
    expect(render(answered({ boxes: [], total: 0, page: 1 }))).toContain('ボックスがまだありません')
    const error = render(failed('サーバーに接続できませんでした'))
    expect(error).toContain('ボックスを読み込めませんでした')
    expect(error).toContain('サーバーに接続できませんでした')
    expect(error).toContain('再試行')
  })
})
