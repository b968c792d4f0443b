import { formatDecimal } from '../format.ts'
import type {
  Interval,
  PricingPolicy,
  SellingPlanBillingPolicy,
  SellingPlanDeliveryPolicy,
  SellingPlanRecord,
} from '../records.ts'
import { type UserError, userError } from './common.ts'
import { type AnchorInput, parseDecimal, toAnchors } from './draft-input.ts'

type RecurringBillingInput = {
  interval?: Interval | null
  intervalCount?: number | null
  anchors?: AnchorInput[] | null
  minCycles?: number | null
  maxCycles?: number | null
}
type RecurringDeliveryInput = {
  interval?: Interval | null
  intervalCount?: number | null
  anchors?: AnchorInput[] | null
  cutoff?: number | null
  intent?: 'FULFILLMENT_BEGIN' | null
  preAnchorBehavior?: 'ASAP' | 'NEXT' | null
}
type AdjustmentInput = {
  adjustmentType?: PricingPolicy['adjustmentType'] | null
  adjustmentValue?: { percentage?: number | null; fixedValue?: string | number | null } | null
}
export type SellingPlanInput = {
  id?: string | null
  name?: string | null
  description?: string | null
  options?: string[] | null
  position?: number | null
  category?: string | null
  billingPolicy?: { fixed?: unknown; recurring?: RecurringBillingInput | null } | null
  deliveryPolicy?: { fixed?: unknown; recurring?: RecurringDeliveryInput | null } | null
  pricingPolicies?: Array<{
    fixed?: AdjustmentInput | null
    recurring?: (AdjustmentInput & { afterCycle: number }) | null
  }> | null
}

const sameAnchors = (a: SellingPlanBillingPolicy['anchors'], b: SellingPlanBillingPolicy['anchors']) =>
  JSON.stringify(a) === JSON.stringify(b)

function pricingPolicy(
  p: AdjustmentInput,
  field: string[],
  currency: string,
): Omit<PricingPolicy, '__typename'> | UserError {
  const value = p.adjustmentValue ?? {}
  const hasPercent = value.percentage != null
  const hasFixed = value.fixedValue != null
  if (hasPercent === hasFixed)
    return userError(
      [...field, 'adjustmentValue'],
      'Give exactly one of percentage or fixedValue',
      'ONLY_NEED_ONE_PRICING_POLICY_VALUE',
    )
  const type = p.adjustmentType ?? (hasPercent ? 'PERCENTAGE' : 'FIXED_AMOUNT')
  if ((type === 'PERCENTAGE') !== hasPercent) {
    return userError(
      [...field, 'adjustmentValue'],
      'Adjustment value does not match the adjustment type',
      'PRICING_POLICY_ADJUSTMENT_VALUE_AND_TYPE_MUST_MATCH',
    )
  }
  if (hasPercent) {
    const percentage = value.percentage!
    if (percentage < 0 || percentage > 100)
      return userError(
        [...field, 'adjustmentValue', 'percentage'],
        'Percentage must be between 0 and 100',
        'INVALID',
      )
    return {
      adjustmentType: type,
      adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue', percentage },
    }
  }
  const amount = parseDecimal(value.fixedValue)
  if (!(amount >= 0))
    return userError(
      [...field, 'adjustmentValue', 'fixedValue'],
      'Amount must be 0 or more',
      'GREATER_THAN_OR_EQUAL_TO',
    )
  return {
    adjustmentType: type,
    adjustmentValue: { __typename: 'MoneyV2', amount: formatDecimal(amount), currencyCode: currency },
  }
}

function pricingPolicies(
  input: SellingPlanInput['pricingPolicies'],
  field: string[],
  currency: string,
): PricingPolicy[] | UserError[] {
  const list = input ?? []
  if (list.length > 2)
    return [
      userError(
        field,
        'A selling plan can have at most 2 pricing policies',
        'SELLING_PLAN_PRICING_POLICIES_LIMIT',
      ),
    ]
  const out: PricingPolicy[] = []
  for (const [i, p] of list.entries()) {
    const at = [...field, String(i)]
    if ((p.fixed != null) === (p.recurring != null))
      return [userError(at, 'Give exactly one of fixed or recurring', 'ONLY_NEED_ONE_PRICING_POLICY_TYPE')]
    const made = pricingPolicy((p.fixed ?? p.recurring)!, at, currency)
    if ('message' in made) return [made]
    out.push(
      p.fixed
        ? { __typename: 'SellingPlanFixedPricingPolicy', ...made }
        : { __typename: 'SellingPlanRecurringPricingPolicy', afterCycle: p.recurring!.afterCycle, ...made },
    )
  }
  if (out.length > 0 && !out.some((p) => p.__typename === 'SellingPlanFixedPricingPolicy')) {
    return [
      userError(
        field,
        'Pricing policies must contain a fixed pricing policy',
        'SELLING_PLAN_PRICING_POLICIES_MUST_CONTAIN_A_FIXED_PRICING_POLICY',
      ),
    ]
  }
  return out
}

/**
 * SellingPlanInput -> record, over `base` for updates (what the input leaves out stays). Policies
 * are always new objects: contracts may share the old ones.
 */
export function sellingPlanFrom(
  input: SellingPlanInput,
  base: SellingPlanRecord | null,
  field: string[],
  ids: { id: number; now: number; currency: string },
): SellingPlanRecord | UserError[] {
  const name = input.name ?? base?.name ?? ''
  if (name.trim() === '') return [userError([...field, 'name'], "Name can't be blank", 'BLANK')]
  if (input.category && input.category !== 'SUBSCRIPTION')
    return [
      userError([...field, 'category'], 'Only SUBSCRIPTION selling plans are supported', 'INVALID_INPUT'),
    ]
  if (input.billingPolicy?.fixed || input.deliveryPolicy?.fixed)
    return [userError(field, 'Only recurring billing and delivery policies are supported', 'INVALID_INPUT')]
  const rb = input.billingPolicy?.recurring
  const rd = input.deliveryPolicy?.recurring
  if (!rb && !base)
    return [
      userError(
        [...field, 'billingPolicy'],
        'Billing policy is missing',
        'SELLING_PLAN_BILLING_POLICY_MISSING',
      ),
    ]
  if (!rd && !base)
    return [
      userError(
        [...field, 'deliveryPolicy'],
        'Delivery policy is missing',
        'SELLING_PLAN_DELIVERY_POLICY_MISSING',
      ),
    ]
  const b0 = base?.billingPolicy
  const d0 = base?.deliveryPolicy
  const billingPolicy: SellingPlanBillingPolicy = {
    __typename: 'SellingPlanRecurringBillingPolicy',
    interval: rb?.interval ?? b0?.interval ?? 'MONTH',
    intervalCount: rb?.intervalCount ?? b0?.intervalCount ?? 1,
    minCycles: rb?.minCycles !== undefined ? rb.minCycles : (b0?.minCycles ?? null),
    maxCycles: rb?.maxCycles !== undefined ? rb.maxCycles : (b0?.maxCycles ?? null),
    anchors: rb?.anchors ? toAnchors(rb.anchors) : (b0?.anchors ?? []),
  }
  const deliveryPolicy: SellingPlanDeliveryPolicy = {
    __typename: 'SellingPlanRecurringDeliveryPolicy',
    interval: rd?.interval ?? d0?.interval ?? billingPolicy.interval,
    intervalCount: rd?.intervalCount ?? d0?.intervalCount ?? billingPolicy.intervalCount,
    cutoff: rd?.cutoff !== undefined ? rd.cutoff : (d0?.cutoff ?? null),
    anchors: rd?.anchors ? toAnchors(rd.anchors) : (d0?.anchors ?? []),
    intent: rd?.intent ?? d0?.intent ?? 'FULFILLMENT_BEGIN',
    preAnchorBehavior: rd?.preAnchorBehavior ?? d0?.preAnchorBehavior ?? 'ASAP',
  }
  if (billingPolicy.intervalCount < 1 || deliveryPolicy.intervalCount < 1)
    return [userError(field, 'Interval count must be greater than 0', 'GREATER_THAN')]
  const { minCycles, maxCycles } = billingPolicy
  if (minCycles !== null && maxCycles !== null && maxCycles < minCycles) {
    return [
      userError(
        [...field, 'billingPolicy', 'recurring', 'maxCycles'],
        'Max cycles must be greater than min cycles',
        'SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES',
      ),
    ]
  }
  if (
    billingPolicy.interval === deliveryPolicy.interval &&
    billingPolicy.intervalCount % deliveryPolicy.intervalCount !== 0
  ) {
    return [
      userError(
        field,
        'Billing cycle must be a multiple of the delivery cycle',
        'SELLING_PLAN_BILLING_CYCLE_MUST_BE_A_MULTIPLE_OF_DELIVERY_CYCLE',
      ),
    ]
  }
  if (!sameAnchors(billingPolicy.anchors, deliveryPolicy.anchors)) {
    return [
      userError(
        field,
        'Billing and delivery anchors must be equal',
        'SELLING_PLAN_BILLING_AND_DELIVERY_POLICY_ANCHORS_MUST_BE_EQUAL',
      ),
    ]
  }
  const pricing =
    input.pricingPolicies === undefined || input.pricingPolicies === null
      ? (base?.pricingPolicies ?? [])
      : pricingPolicies(input.pricingPolicies, [...field, 'pricingPolicies'], ids.currency)
  if (pricing.length > 0 && 'message' in pricing[0]!) return pricing as UserError[]
  return {
    id: ids.id,
    name,
    description: input.description !== undefined ? input.description : (base?.description ?? null),
    category: 'SUBSCRIPTION',
    options: input.options ?? base?.options ?? [name],
    position: input.position !== undefined ? input.position : (base?.position ?? null),
    createdAt: base?.createdAt ?? ids.now,
    billingPolicy,
    deliveryPolicy,
    pricingPolicies: pricing as PricingPolicy[],
  }
}
