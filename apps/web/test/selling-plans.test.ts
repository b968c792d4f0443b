import { AppProvider } from '@shopify/polaris'
import ja from '@shopify/polaris/locales/ja.json'
import type { SellingPlan, SellingPlanGroupDetail } from '@teiki/contract'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import {
  draftProblems,
  groupDraftOf,
  isDraftDirty,
  numberOf,
  requestOf,
} from '../src/features/selling-plans/group-draft.ts'
import {
  createEditorActions,
  INVALID_DRAFT_MESSAGE,
} from '../src/features/selling-plans/group-editor-actions.ts'
import { EditorBody } from '../src/features/selling-plans/group-editor-page.tsx'
import {
  type EditorAction,
  type EditorState,
  editorReducer,
  newGroupState,
} from '../src/features/selling-plans/group-editor-state.ts'
import { discountSummary, intervalLabel, pricePreview } from '../src/features/selling-plans/plan-display.ts'
import { PlanListBody } from '../src/features/selling-plans/plan-list-page.tsx'
import { httpPlansApi } from '../src/features/selling-plans/plans-api.ts'
import { answered, failed } from './support/api-state.ts'
import { json, mockFetch } from './support/fetch-mock.ts'

const plan = (patch: Partial<SellingPlan>): SellingPlan => ({
  id: '900',
  name: '毎月お届け',
  description: null,
  option: '1ヶ月ごと',
  category: 'SUBSCRIPTION',
  interval: 'MONTH',
  intervalCount: 1,
  minCycles: 1,
  maxCycles: null,
  anchors: [],
  deliveryInterval: 'MONTH',
  deliveryIntervalCount: 1,
  cutoff: null,
  preAnchorBehavior: 'ASAP',
  discountType: 'noDiscount',
  valueType: null,
  initialValue: null,
  laterValue: null,
  afterCycle: null,
  cycleDiscounts: [],
  ...patch,
})

const detail: SellingPlanGroupDetail = {
  id: '42',
  name: '定期便',
  merchantCode: 'teiki',
  description: null,
  option: 'お届け頻度',
  productsCount: 2,
  productVariantsCount: 5,
  products: [],
  plans: [
    plan({}),
    plan({
      id: '901',
      name: '回数割',
      discountType: 'recurringMultiDiscount',
      valueType: 'PERCENTAGE',
      cycleDiscounts: [
        { cycle: 1, value: 30 },
        { cycle: 2, value: 20 },
        { cycle: 4, value: 10 },
      ],
    }),
  ],
  currencyCode: 'JPY',
}

describe('what the list and the editor say', () => {
  it('summarises each discount type in Japanese, yen as ¥1,980', () => {
    expect(discountSummary(plan({}), 'JPY')).toBe('割引なし')
    expect(
      discountSummary(
        plan({ discountType: 'fixedDiscount', valueType: 'PERCENTAGE', initialValue: 10 }),
        'JPY',
      ),
    ).toBe('10%オフ')
    expect(
      discountSummary(
        plan({
          discountType: 'recurringDiscount',
          valueType: 'FIXED_AMOUNT',
          initialValue: 1500,
          laterValue: 300,
          afterCycle: 1,
        }),
        'JPY',
      ),
    ).toBe('初回\u00a51,500引き、2回目以降\u00a5300引き')
    expect(discountSummary(detail.plans[1]!, 'JPY')).toBe('1回目30%オフ、2〜3回目20%オフ、4回目以降10%オフ')
    expect(
      discountSummary(plan({ discountType: 'fixedDiscount', valueType: 'PRICE', initialValue: 1980 }), 'JPY'),
    ).toBe('\u00a51,980（価格指定）')
    expect(intervalLabel('WEEK', 2)).toBe('2週間ごと')
    expect(intervalLabel('MONTH', 1)).toBe('1ヶ月ごと')
  })

  it('previews the first cycles’ prices of a valid plan only', () => {
    const draft = groupDraftOf(detail)
    const multi = draft.plans[1]!
    const form = { ...requestOf(draft).plans[1]! } as Parameters<typeof pricePreview>[0]
    expect(pricePreview(form, 'JPY')).toEqual([
      { cycle: 1, price: '\u00a51,386' },
      { cycle: 2, price: '\u00a51,584' },
      { cycle: 3, price: '\u00a51,584' },
      { cycle: 4, price: '\u00a51,782' },
    ])
    // The schedule's problems do not keep the price from being shown; the discount's do.
    expect(pricePreview({ ...form, minCycles: null }, 'JPY')).toHaveLength(4)
    expect(pricePreview({ ...form, valueType: null }, 'JPY')).toBeNull()
    expect(multi.cycleDiscounts.map((r) => r.cycle)).toEqual(['1', '2', '4'])
  })
})

describe('the editor’s draft', () => {
  it('reads typed numbers, full-width too; empty is null; other text is not a number', () => {
    expect(numberOf('１２')).toBe(12)
    expect(numberOf(' 1,980 ')).toBe(1980)
    expect(numberOf('')).toBeNull()
    expect(numberOf('0.5')).toBe(0.5)
    expect(numberOf('abc')).toBeNaN()
  })

  it('is not dirty as loaded, sends the plans with their ids, and names each wrong field', () => {
    let state: EditorState = editorReducer(newGroupState(), { type: 'loaded', detail })
    expect(isDraftDirty(state.loaded, state.draft)).toBe(false)
    const body = requestOf(state.draft)
    expect(body.plans.map((p) => p.id)).toEqual(['900', '901'])
    expect(body.plans[1]).toMatchObject({
      discountType: 'recurringMultiDiscount',
      cycleDiscounts: [
        { cycle: 1, value: 30 },
        { cycle: 2, value: 20 },
        { cycle: 4, value: 10 },
      ],
    })
    const first = state.draft.plans[0]!.key
    const act = (action: EditorAction) => {
      state = editorReducer(state, action)
    }
    act({ type: 'planChanged', key: first, patch: { minCycles: '0', discountType: 'fixedDiscount' } })
    act({ type: 'ruleAdded', plan: state.draft.plans[1]!.key })
    expect(state.draft.plans[1]!.cycleDiscounts.at(-1)).toMatchObject({ cycle: '5', value: '' })
    expect(isDraftDirty(state.loaded, state.draft)).toBe(true)
    const problems = draftProblems(state.draft)
    expect(problems.plans[first]).toEqual({
      minCycles: '最低継続回数は1以上で入力してください',
      initialValue: '割引の値を入力してください',
      valueType: '割引の単位（％オフ・円引きなど）を選んでください',
    })
    expect(problems.plans[state.draft.plans[1]!.key]).toEqual({
      cycleDiscounts: '5回目の割引の値を入力してください',
    })
    act({ type: 'discarded' })
    expect(isDraftDirty(state.loaded, state.draft)).toBe(false)
  })

  it('shows the problems in Japanese on the fields once a save was tried', () => {
    let state = newGroupState()
    state = editorReducer(state, {
      type: 'planChanged',
      key: state.draft.plans[0]!.key,
      patch: { intervalCount: '' },
    })
    const html = (s: EditorState) =>
      renderToStaticMarkup(
        createElement(
          AppProvider,
          { i18n: ja },
          createElement(EditorBody, { state: s, dispatch: () => {}, currencyCode: 'JPY', side: null }),
        ),
      )
    expect(html(state)).not.toContain('お届け間隔を入力してください')
    const tried = editorReducer(state, { type: 'saveFailed' })
    expect(html(tried)).toContain('お届け間隔を入力してください')
    expect(html(tried)).toContain('販売プラン名を入力してください')
  })
})

describe('saving (fetch mocked, the real HTTP client)', () => {
  const http = mockFetch()

  function editor(groupId: string | null, initial: EditorState) {
    let state = initial
    const toasts: Array<{ message: string; error: boolean }> = []
    const goTo = vi.fn()
    const actions = createEditorActions({
      api: httpPlansApi,
      ui: {
        showToast: (message, o) => toasts.push({ message, error: o?.error ?? false }),
        openModal: () => {},
        updateModal: () => {},
        closeModal: () => {},
      },
      dispatch: (a) => {
        state = editorReducer(state, a)
      },
      getState: () => state,
      groupId,
      goTo,
    })
    return {
      actions,
      toasts,
      goTo,
      get state() {
        return state
      },
    }
  }

  it('sends nothing while the draft is wrong', async () => {
    const e = editor(null, newGroupState())
    await e.actions.save()
    expect(http.fetch).not.toHaveBeenCalled()
    expect(e.toasts).toEqual([{ message: INVALID_DRAFT_MESSAGE, error: true }])
    expect(e.state.showProblems).toBe(true)
  })

  it('creates, adds the picked variants, reloads and goes to the new group', async () => {
    let state = newGroupState()
    state = editorReducer(state, { type: 'groupChanged', field: 'name', value: '新しい定期便' })
    state = editorReducer(state, { type: 'productsPicked', productIds: ['10'], variantIds: ['201'] })
    const e = editor(null, state)
    http.fetch
      .mockResolvedValueOnce(
        json(201, {
          id: '77',
          name: '新しい定期便',
          merchantCode: null,
          productsCount: 1,
          productVariantsCount: 1,
          plans: [],
          createdAt: null,
        }),
      )
      .mockResolvedValueOnce(json(200, { id: '77' }))
      .mockResolvedValueOnce(json(200, { ...detail, id: '77', name: '新しい定期便' }))
    await e.actions.save()
    const sent = http.fetch.mock.calls.map(([url, init]) => [
      String(url).replace(/\?.*/, ''),
      init?.method ?? 'GET',
      init?.body ? JSON.parse(String(init.body)) : null,
    ])
    expect(sent[0]).toEqual([
      '/app-admin/selling-plan-groups',
      'POST',
      expect.objectContaining({ name: '新しい定期便', productIds: ['10'] }),
    ])
    expect(sent[1]).toEqual([
      '/app-admin/selling-plan-groups/77/products',
      'POST',
      { addVariantIds: ['201'] },
    ])
    expect(sent[2]).toEqual(['/app-admin/selling-plan-groups/77', 'GET', null])
    expect(e.goTo).toHaveBeenCalledWith('/selling-plans/77')
    expect(e.toasts).toEqual([{ message: '販売プランを作成しました', error: false }])
  })

  it('shows the server’s Japanese message when the platform refuses, and keeps the draft', async () => {
    const loaded = editorReducer(newGroupState(), { type: 'loaded', detail })
    const changed = editorReducer(loaded, { type: 'groupChanged', field: 'name', value: '改名' })
    const e = editor('42', changed)
    http.fetch.mockResolvedValueOnce(
      json(422, {
        error: {
          code: 'PLATFORM_USER_ERROR',
          message: 'Shopify が販売プランの保存を受け付けませんでした：名前が正しくありません。',
        },
      }),
    )
    await e.actions.save()
    expect(e.toasts).toEqual([
      { message: 'Shopify が販売プランの保存を受け付けませんでした：名前が正しくありません。', error: true },
    ])
    expect(e.state.draft.name).toBe('改名')
    expect(e.state.saving).toBe(false)
  })
})

describe('the group list', () => {
  const render = (state: Parameters<typeof PlanListBody>[0]['state'], query = '') =>
    renderToStaticMarkup(
      createElement(AppProvider, { i18n: ja }, createElement(PlanListBody, { state, query })),
    )

  it('shows each group with its plans’ discount types and counts; empty, searched-empty and error states', () => {
    const html = render(
      answered({
        groups: [
          {
            id: '42',
            name: '定期便',
            merchantCode: 'teiki',
            productsCount: 3,
            productVariantsCount: 1200,
            plans: [
              { id: '900', name: '毎月お届け', discountType: 'noDiscount' },
              { id: '901', name: '回数割', discountType: 'recurringMultiDiscount' },
            ],
            createdAt: '2026-11-24T15:30:00Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 10,
      }),
    )
    expect(html).toContain('定期便')
    expect(html).toContain('割引なし')
    expect(html).toContain('回数ごとに割引を変える')
    expect(html).toContain('3商品・1,200バリエーション')
    expect(html).toContain('2026年11月25日')
    expect(render(answered({ groups: [], total: 0, page: 1, pageSize: 10 }))).toContain(
      '販売プランがまだありません',
    )
    expect(render(answered({ groups: [], total: 0, page: 1, pageSize: 10 }), '夏')).toContain(
      '該当する販売プランはありません',
    )
    const error = render(failed('サーバーに接続できませんでした'))
    expect(error).toContain('販売プランを読み込めませんでした')
    expect(error).toContain('再試行')
  })
})
