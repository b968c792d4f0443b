import type { SellingPlan, SellingPlanInput } from '@teiki/contract'
import {
  type CustomCycleDiscount,
  type CycleDiscount,
  type DiscountValueType,
  discountFieldsOf,
  planDiscountType,
  pricingPoliciesOf,
  type SellingPlanForm,
  type StoredPricingPolicy,
} from '@teiki/domain'
import { idFromGid, toGid } from '../../platform/gid.ts'
import type { PlatformSellingPlan } from '../../platform/operations/selling-plan-fragments.ts'

// Between the editor's plan (the domain's SellingPlanForm) and the platform's SellingPlan:
// what is sent (SellingPlanInput) and how a stored plan reads back.

type Anchor = { type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'; day: number; month: number | null }
type RecurringPolicy = {
  interval?: SellingPlanForm['interval'] | 'YEAR'
  intervalCount?: number
  minCycles?: number | null
  maxCycles?: number | null
  cutoff?: number | null
  preAnchorBehavior?: 'ASAP' | 'NEXT'
  anchors?: Anchor[]
}
type StoredPolicy = {
  __typename: string
  afterCycle?: number
  adjustmentType: DiscountValueType
  adjustmentValue: { percentage?: number; amount?: string }
}

/** The request's plan as the domain's form (the zod defaults filled in). */
export function formOf(plan: SellingPlanInput): SellingPlanForm {
  return {
    name: plan.name,
    description: plan.description ?? null,
    option: plan.option ?? null,
    category: plan.category ?? 'SUBSCRIPTION',
    interval: plan.interval as SellingPlanForm['interval'],
    intervalCount: plan.intervalCount,
    minCycles: plan.minCycles,
    maxCycles: plan.maxCycles ?? null,
    anchors: (plan.anchors ?? []).map((a) => ({ type: a.type, day: a.day, month: a.month ?? null })),
    deliveryInterval: (plan.deliveryInterval ?? null) as SellingPlanForm['deliveryInterval'],
    deliveryIntervalCount: plan.deliveryIntervalCount ?? null,
    cutoff: plan.cutoff ?? null,
    preAnchorBehavior: plan.preAnchorBehavior ?? 'ASAP',
    discountType: plan.discountType,
    valueType: plan.valueType ?? null,
    initialValue: plan.initialValue ?? null,
    laterValue: plan.laterValue ?? null,
    afterCycle: plan.afterCycle ?? null,
    cycleDiscounts: (plan.cycleDiscounts ?? []).map((r) => ({ cycle: r.cycle, value: r.value })),
  }
}

const anchorInput = (a: SellingPlanForm['anchors'][number]) =>
  a.type === 'YEARDAY' ? { type: a.type, day: a.day, month: a.month } : { type: a.type, day: a.day }

/**
 * SellingPlanInput of a plan the validation passed: billing and delivery policies with the
 * same anchors (the platform requires them equal), the pricing policies of its discount type
 * with JPY amounts in whole yen, and the option value (the name when none is given).
 */
export function sellingPlanInput(
  form: SellingPlanForm,
  currencyCode: string,
  id?: string,
): Record<string, unknown> {
  const name = (form.name ?? '').trim()
  const anchors = form.anchors.map(anchorInput)
  return {
    ...(id ? { id: toGid('SellingPlan', id) } : {}),
    name,
    description: form.description,
    options: [form.option?.trim() || name],
    category: form.category,
    billingPolicy: {
      recurring: {
        interval: form.interval,
        intervalCount: form.intervalCount,
        minCycles: form.minCycles,
        maxCycles: form.maxCycles,
        anchors,
      },
    },
    deliveryPolicy: {
      recurring: {
        interval: form.deliveryInterval ?? form.interval,
        intervalCount: form.deliveryIntervalCount ?? form.intervalCount,
        cutoff: form.cutoff,
        anchors,
        preAnchorBehavior: form.preAnchorBehavior,
        intent: 'FULFILLMENT_BEGIN',
      },
    },
    pricingPolicies: pricingPoliciesOf(form, currencyCode),
  }
}

function storedPolicy(p: StoredPolicy): StoredPricingPolicy {
  const v = p.adjustmentValue
  return {
    afterCycle: p.__typename === 'SellingPlanRecurringPricingPolicy' ? (p.afterCycle ?? 0) : null,
    adjustmentType: p.adjustmentType,
    value: v.percentage ?? Number(v.amount ?? 0),
  }
}

/**
 * A stored plan's pricing policies (mirror or platform answer) as the cycle discounts a line
 * bought with it carries: the fixed one from the first cycle, the recurring one after its cycle.
 */
export function lineDiscountsOf(pricingPolicies: unknown): CycleDiscount[] {
  return ((pricingPolicies ?? []) as StoredPolicy[]).map((p) => {
    const v = p.adjustmentValue
    return {
      adjustmentType: p.adjustmentType,
      adjustmentValue: v.percentage !== undefined ? String(v.percentage) : (v.amount ?? '0'),
      afterCycle: p.__typename === 'SellingPlanRecurringPricingPolicy' ? (p.afterCycle ?? 0) : 0,
    }
  })
}

/** A stored plan (platform answer or mirror row) as the editor reads it, with the app's rules. */
export function planView(
  plan: Pick<PlatformSellingPlan, 'id' | 'name' | 'description' | 'category' | 'options'> & {
    billingPolicy: unknown
    deliveryPolicy: unknown
    pricingPolicies: unknown
  },
  rules: readonly CustomCycleDiscount[],
): SellingPlan {
  const billing = (plan.billingPolicy ?? {}) as RecurringPolicy
  const delivery = (plan.deliveryPolicy ?? {}) as RecurringPolicy
  const policies = ((plan.pricingPolicies ?? []) as StoredPolicy[]).map(storedPolicy)
  const interval = (billing.interval ?? 'MONTH') as SellingPlanForm['interval']
  return {
    id: plan.id.startsWith('gid://') ? idFromGid(plan.id) : plan.id,
    name: plan.name,
    description: plan.description,
    option: plan.options[0] ?? null,
    category: (plan.category ?? 'SUBSCRIPTION') as SellingPlanForm['category'],
    interval,
    intervalCount: billing.intervalCount ?? null,
    minCycles: billing.minCycles ?? null,
    maxCycles: billing.maxCycles ?? null,
    anchors: (billing.anchors ?? []).map((a) => ({ type: a.type, day: a.day, month: a.month ?? null })),
    deliveryInterval: (delivery.interval ?? interval) as SellingPlanForm['interval'],
    deliveryIntervalCount: delivery.intervalCount ?? null,
    cutoff: delivery.cutoff ?? null,
    preAnchorBehavior: delivery.preAnchorBehavior ?? 'ASAP',
    ...discountFieldsOf(policies, rules),
    discountType: planDiscountType(Math.min(policies.length, 2), rules.length),
  }
}
