import type {
  SellingPlan,
  SellingPlanGroupDetail,
  SellingPlanGroupInput,
  SellingPlanInput,
} from '@teiki/contract'
import {
  customCycleDiscountProblem,
  type DiscountType,
  type DiscountValueType,
  type PlanProblems,
  type SellingPlanForm,
  sellingPlanProblems,
} from '@teiki/domain'

/**
 * The 販売プラン editor's state: what the merchant types, as text (so 「1.」 or an emptied field
 * survive while typing), turned into the domain's SellingPlanForm to validate (spec §5, the
 * same rules the server applies) and into the request.
 */

export type AnchorDraft = {
  key: string
  type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
  day: string
  month: string
}
export type RuleDraft = { key: string; cycle: string; value: string }

export type PlanDraft = {
  key: string
  /** The platform's id of a plan that exists; none for a new one. */
  id?: string
  name: string
  description: string
  option: string
  category: SellingPlanForm['category']
  interval: SellingPlanForm['interval']
  intervalCount: string
  minCycles: string
  maxCycles: string
  anchors: AnchorDraft[]
  /** Empty: the billing cadence. */
  deliveryIntervalCount: string
  cutoff: string
  preAnchorBehavior: 'ASAP' | 'NEXT'
  discountType: DiscountType
  valueType: DiscountValueType | ''
  initialValue: string
  laterValue: string
  afterCycle: string
  cycleDiscounts: RuleDraft[]
}

export type GroupDraft = {
  name: string
  merchantCode: string
  option: string
  description: string
  plans: PlanDraft[]
  /** A new group's products and single variants, added when it is created (an existing group changes them at once). */
  productIds: string[]
  variantIds: string[]
}

let counter = 0
/** A key for list items the merchant adds (React keys; never sent). */
export const newKey = (prefix: string) => `${prefix}-${++counter}`

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n))

export function newPlanDraft(name = ''): PlanDraft {
  return {
    key: newKey('plan'),
    name,
    description: '',
    option: '',
    category: 'SUBSCRIPTION',
    interval: 'MONTH',
    intervalCount: '1',
    minCycles: '1',
    maxCycles: '',
    anchors: [],
    deliveryIntervalCount: '',
    cutoff: '',
    preAnchorBehavior: 'ASAP',
    discountType: 'noDiscount',
    valueType: '',
    initialValue: '',
    laterValue: '',
    afterCycle: '1',
    cycleDiscounts: [],
  }
}

export const emptyGroupDraft = (): GroupDraft => ({
  name: '',
  merchantCode: '',
  option: 'お届け頻度',
  description: '',
  plans: [newPlanDraft('毎月お届け')],
  productIds: [],
  variantIds: [],
})

function planDraftOf(plan: SellingPlan): PlanDraft {
  return {
    key: `plan-${plan.id}`,
    id: plan.id,
    name: plan.name,
    description: plan.description ?? '',
    option: plan.option ?? '',
    category: plan.category ?? 'SUBSCRIPTION',
    interval: plan.interval,
    intervalCount: text(plan.intervalCount),
    minCycles: text(plan.minCycles),
    maxCycles: text(plan.maxCycles),
    anchors: (plan.anchors ?? []).map((a, i) => ({
      key: `anchor-${plan.id}-${i}`,
      type: a.type,
      day: String(a.day),
      month: text(a.month),
    })),
    deliveryIntervalCount:
      plan.deliveryIntervalCount !== null && plan.deliveryIntervalCount !== plan.intervalCount
        ? text(plan.deliveryIntervalCount)
        : '',
    cutoff: text(plan.cutoff),
    preAnchorBehavior: plan.preAnchorBehavior ?? 'ASAP',
    discountType: plan.discountType,
    valueType: plan.valueType ?? '',
    initialValue: text(plan.initialValue),
    laterValue: text(plan.laterValue),
    afterCycle: text(plan.afterCycle ?? 1),
    cycleDiscounts: (plan.cycleDiscounts ?? []).map((r, i) => ({
      key: `rule-${plan.id}-${i}`,
      cycle: text(r.cycle),
      value: text(r.value),
    })),
  }
}

export function groupDraftOf(detail: SellingPlanGroupDetail): GroupDraft {
  return {
    name: detail.name,
    merchantCode: detail.merchantCode === detail.name ? '' : (detail.merchantCode ?? ''),
    option: detail.option,
    description: detail.description ?? '',
    plans: detail.plans.map(planDraftOf),
    productIds: [],
    variantIds: [],
  }
}

/**
 * A number the merchant typed: full-width digits, signs and points are read as half-width
 * (日本語入力のまま数字を打っても通るように); empty is null; anything else is NaN, which the
 * validation reports as not entered.
 */
export function numberOf(input: string): number | null {
  const half = input
    .trim()
    .replace(/[０-９．－]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
    .replace(/[ー−]/g, '-')
    .replace(/,/g, '')
  if (half === '') return null
  return /^-?(\d+\.?\d*|\.\d+)$/.test(half) ? Number(half) : Number.NaN
}

/** The plan as the domain (and the server) reads it. */
export function formOfDraft(plan: PlanDraft): SellingPlanForm {
  const delivery = numberOf(plan.deliveryIntervalCount)
  return {
    name: plan.name,
    description: plan.description.trim() === '' ? null : plan.description,
    option: plan.option.trim() === '' ? null : plan.option,
    category: plan.category,
    interval: plan.interval,
    intervalCount: numberOf(plan.intervalCount),
    minCycles: numberOf(plan.minCycles),
    maxCycles: numberOf(plan.maxCycles),
    anchors: plan.anchors.map((a) => ({
      type: a.type,
      day: numberOf(a.day) ?? 0,
      month: a.type === 'YEARDAY' ? numberOf(a.month) : null,
    })),
    deliveryInterval: null,
    deliveryIntervalCount: delivery,
    cutoff: numberOf(plan.cutoff),
    preAnchorBehavior: plan.preAnchorBehavior,
    discountType: plan.discountType,
    valueType: plan.valueType === '' ? null : plan.valueType,
    initialValue: numberOf(plan.initialValue),
    laterValue: numberOf(plan.laterValue),
    afterCycle: numberOf(plan.afterCycle),
    cycleDiscounts: plan.cycleDiscounts.map((r) => ({ cycle: numberOf(r.cycle), value: numberOf(r.value) })),
  }
}

/** A plan's problems by field (spec §5), and its multi rules' own problem. */
export function planDraftProblems(plan: PlanDraft): PlanProblems {
  const form = formOfDraft(plan)
  const problems = sellingPlanProblems(form)
  if (form.discountType === 'recurringMultiDiscount' && !problems.valueType) {
    const rules = customCycleDiscountProblem(form.valueType, form.cycleDiscounts)
    if (rules) problems.cycleDiscounts = rules
  }
  return problems
}

export type DraftProblems = { name?: string; plans: Record<string, PlanProblems>; count: number }

export function draftProblems(draft: GroupDraft): DraftProblems {
  const plans: Record<string, PlanProblems> = {}
  let count = 0
  for (const plan of draft.plans) {
    const problems = planDraftProblems(plan)
    count += Object.keys(problems).length
    if (Object.keys(problems).length > 0) plans[plan.key] = problems
  }
  const name = draft.name.trim() === '' ? '販売プラン名を入力してください' : undefined
  if (draft.plans.length === 0) count += 1
  return { ...(name ? { name } : {}), plans, count: count + (name ? 1 : 0) }
}

/** The request body of a draft (create or update: the plans with ids are updated). */
export function requestOf(draft: GroupDraft): SellingPlanGroupInput {
  return {
    name: draft.name.trim(),
    merchantCode: draft.merchantCode.trim(),
    option: draft.option.trim() || 'お届け頻度',
    description: draft.description.trim() === '' ? null : draft.description,
    plans: draft.plans.map((plan): SellingPlanInput => {
      const form = formOfDraft(plan)
      return {
        ...(plan.id ? { id: plan.id } : {}),
        ...form,
        deliveryInterval: form.deliveryIntervalCount === null ? null : form.interval,
      }
    }),
    productIds: draft.productIds,
  }
}

/** True when the draft would send something else than what was loaded. */
export function isDraftDirty(loaded: GroupDraft, draft: GroupDraft): boolean {
  return JSON.stringify(requestOf(loaded)) !== JSON.stringify(requestOf(draft))
}
