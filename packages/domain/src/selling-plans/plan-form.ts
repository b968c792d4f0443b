import type { DiscountType, DiscountValueType } from './discount-types.ts'

/** A selling plan anchor as the editor holds it (spec §3: anchors with day and type). */
export type PlanAnchor = {
  type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
  /** 1–7 (ISO weekday, 1 = Monday) for WEEKDAY, else 1–31. */
  day: number
  /** 1–12, for YEARDAY only. */
  month: number | null
}

/** One custom cycle discount of a recurring-multi plan: the value from cycle `cycle` on. */
export type CycleDiscountRule = { cycle: number | null; value: number | null }

/**
 * A selling plan as the merchant edits it. Fields the spec requires to be "present" are
 * nullable: null is what an empty field sends, and the validation names it.
 */
export type SellingPlanForm = {
  name: string | null
  description: string | null
  /** The plan's value of the group's option (e.g. 「1ヶ月ごと」); the plan name when empty. */
  option: string | null
  category: 'SUBSCRIPTION' | 'PRE_ORDER' | 'TRY_BEFORE_YOU_BUY' | 'OTHER'
  interval: 'DAY' | 'WEEK' | 'MONTH'
  intervalCount: number | null
  minCycles: number | null
  maxCycles: number | null
  /** Billing and delivery anchors (the platform requires them equal). */
  anchors: PlanAnchor[]
  /** Delivery cadence; null: the billing cadence. */
  deliveryInterval: 'DAY' | 'WEEK' | 'MONTH' | null
  deliveryIntervalCount: number | null
  /** Days before an anchor inside which an order waits for the next one. */
  cutoff: number | null
  preAnchorBehavior: 'ASAP' | 'NEXT'
  discountType: DiscountType | null
  valueType: DiscountValueType | null
  /** Fixed: the discount; recurring: the discount up to `afterCycle`. */
  initialValue: number | null
  /** Recurring: the discount after `afterCycle`. */
  laterValue: number | null
  /** Recurring: the cycle after which `laterValue` applies (1: from the second cycle). */
  afterCycle: number | null
  /** Recurring multi: a value per cycle number (kept by the app, ADR 0013). */
  cycleDiscounts: CycleDiscountRule[]
}

/** The fields a validation message can be about. */
export type PlanField =
  | 'name'
  | 'discountType'
  | 'intervalCount'
  | 'minCycles'
  | 'valueType'
  | 'initialValue'
  | 'laterValue'
  | 'afterCycle'
  | 'cycleDiscounts'

/** Field → Japanese message; an empty object is a valid plan. */
export type PlanProblems = Partial<Record<PlanField, string>>

/** A new plan as the editor opens it: monthly, no discount, from the first cycle on. */
export function newPlanForm(name = ''): SellingPlanForm {
  return {
    name,
    description: null,
    option: null,
    category: 'SUBSCRIPTION',
    interval: 'MONTH',
    intervalCount: 1,
    minCycles: 1,
    maxCycles: null,
    anchors: [],
    deliveryInterval: null,
    deliveryIntervalCount: null,
    cutoff: null,
    preAnchorBehavior: 'ASAP',
    discountType: 'noDiscount',
    valueType: null,
    initialValue: null,
    laterValue: null,
    afterCycle: null,
    cycleDiscounts: [],
  }
}
