import type { SellingPlanGroupDetail } from '@teiki/contract'
import type { LoadStatus } from '../../app/use-reducer-state.ts'
import {
  type AnchorDraft,
  emptyGroupDraft,
  type GroupDraft,
  groupDraftOf,
  newKey,
  newPlanDraft,
  type PlanDraft,
  type RuleDraft,
} from './group-draft.ts'

/** The editor: what was loaded (or a new group), the draft, and whether to show problems. */
export type EditorState = {
  load: LoadStatus
  detail: SellingPlanGroupDetail | null
  loaded: GroupDraft
  draft: GroupDraft
  /** Problems are shown once the merchant tried to save (not while the first field is typed). */
  showProblems: boolean
  saving: boolean
}

type GroupField = 'name' | 'merchantCode' | 'option' | 'description'

export type EditorAction =
  | { type: 'loading' }
  | { type: 'loaded'; detail: SellingPlanGroupDetail }
  | { type: 'loadFailed'; message: string }
  | { type: 'groupChanged'; field: GroupField; value: string }
  | { type: 'planChanged'; key: string; patch: Partial<Omit<PlanDraft, 'key' | 'id'>> }
  | { type: 'planAdded' }
  | { type: 'planRemoved'; key: string }
  | { type: 'anchorAdded'; plan: string }
  | { type: 'anchorChanged'; plan: string; key: string; patch: Partial<Omit<AnchorDraft, 'key'>> }
  | { type: 'anchorRemoved'; plan: string; key: string }
  | { type: 'ruleAdded'; plan: string }
  | { type: 'ruleChanged'; plan: string; key: string; patch: Partial<Omit<RuleDraft, 'key'>> }
  | { type: 'ruleRemoved'; plan: string; key: string }
  | { type: 'productsPicked'; productIds: string[]; variantIds: string[] }
  | { type: 'detailChanged'; detail: SellingPlanGroupDetail }
  | { type: 'saveStarted' }
  | { type: 'saveFailed' }
  | { type: 'saved'; detail: SellingPlanGroupDetail }
  | { type: 'discarded' }

export const newGroupState = (): EditorState => {
  const draft = emptyGroupDraft()
  return { load: { status: 'ready' }, detail: null, loaded: draft, draft, showProblems: false, saving: false }
}

export const loadingState = (): EditorState => ({ ...newGroupState(), load: { status: 'loading' } })

function mapPlan(draft: GroupDraft, key: string, change: (plan: PlanDraft) => PlanDraft): GroupDraft {
  return { ...draft, plans: draft.plans.map((p) => (p.key === key ? change(p) : p)) }
}

function nextRuleCycle(plan: PlanDraft): string {
  const cycles = plan.cycleDiscounts.map((r) => Number(r.cycle)).filter((n) => Number.isFinite(n))
  return String(cycles.length === 0 ? 1 : Math.max(...cycles) + 1)
}

function draftReducer(draft: GroupDraft, action: EditorAction): GroupDraft {
  switch (action.type) {
    case 'groupChanged':
      return { ...draft, [action.field]: action.value }
    case 'planChanged':
      return mapPlan(draft, action.key, (p) => ({ ...p, ...action.patch }))
    case 'planAdded':
      return { ...draft, plans: [...draft.plans, newPlanDraft()] }
    case 'planRemoved':
      return { ...draft, plans: draft.plans.filter((p) => p.key !== action.key) }
    case 'anchorAdded':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        anchors: [...p.anchors, { key: newKey('anchor'), type: 'MONTHDAY', day: '1', month: '' }],
      }))
    case 'anchorChanged':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        anchors: p.anchors.map((a) => (a.key === action.key ? { ...a, ...action.patch } : a)),
      }))
    case 'anchorRemoved':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        anchors: p.anchors.filter((a) => a.key !== action.key),
      }))
    case 'ruleAdded':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        cycleDiscounts: [...p.cycleDiscounts, { key: newKey('rule'), cycle: nextRuleCycle(p), value: '' }],
      }))
    case 'ruleChanged':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        cycleDiscounts: p.cycleDiscounts.map((r) => (r.key === action.key ? { ...r, ...action.patch } : r)),
      }))
    case 'ruleRemoved':
      return mapPlan(draft, action.plan, (p) => ({
        ...p,
        cycleDiscounts: p.cycleDiscounts.filter((r) => r.key !== action.key),
      }))
    case 'productsPicked':
      return { ...draft, productIds: action.productIds, variantIds: action.variantIds }
    default:
      return draft
  }
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'loading':
      return { ...state, load: { status: 'loading' } }
    case 'loadFailed':
      return { ...state, load: { status: 'error', message: action.message } }
    case 'loaded':
    case 'saved': {
      const loaded = groupDraftOf(action.detail)
      return {
        load: { status: 'ready' },
        detail: action.detail,
        loaded,
        draft: loaded,
        showProblems: false,
        saving: false,
      }
    }
    case 'saveStarted':
      return { ...state, saving: true, showProblems: true }
    case 'saveFailed':
      return { ...state, saving: false, showProblems: true }
    case 'discarded':
      return { ...state, draft: state.loaded, showProblems: false }
    case 'detailChanged':
      // Products changed on the platform: the detail moves on, the plans being edited stay.
      return { ...state, detail: action.detail }
    default:
      return { ...state, draft: draftReducer(state.draft, action) }
  }
}
