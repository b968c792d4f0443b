import type { SellingPlan, SellingPlanGroupSummary } from '@teiki/contract'
import {
  type DiscountType,
  discountTypeLabel,
  formatMoney,
  formatNumber,
  planCyclePrice,
  type SellingPlanForm,
  sellingPlanProblems,
} from '@teiki/domain'

/** 「1ヶ月ごと」「2週間ごと」「10日ごと」. */
export function intervalLabel(interval: string, count: number | null): string {
  const n = count ?? 1
  if (interval === 'WEEK') return `${n}週間ごと`
  if (interval === 'DAY') return `${n}日ごと`
  if (interval === 'YEAR') return `${n}年ごと`
  return `${n}ヶ月ごと`
}

/** One discount value as a merchant reads it: 「10%オフ」「¥300引き」「¥1,500」. */
export function valueText(type: string | null, value: number | string | null, currencyCode: string): string {
  if (value === null || value === '') return '—'
  if (type === 'PERCENTAGE') return `${formatNumber(Number(value))}%オフ`
  if (type === 'FIXED_AMOUNT') return `${formatMoney(value, currencyCode)}引き`
  return `${formatMoney(value, currencyCode)}（価格指定）`
}

/** What a plan's discount does, in one line for the list and the editor's heading. */
export function discountSummary(plan: SellingPlan, currencyCode: string): string {
  const type = plan.valueType ?? null
  switch (plan.discountType) {
    case 'fixedDiscount':
      return valueText(type, plan.initialValue ?? null, currencyCode)
    case 'recurringDiscount':
      return `初回${valueText(type, plan.initialValue ?? null, currencyCode)}、${(plan.afterCycle ?? 1) + 1}回目以降${valueText(type, plan.laterValue ?? null, currencyCode)}`
    case 'recurringMultiDiscount': {
      const rules = [...(plan.cycleDiscounts ?? [])].sort((a, b) => (a.cycle ?? 0) - (b.cycle ?? 0))
      return rules
        .map((r, i) => {
          const next = rules[i + 1]?.cycle ?? null
          const span =
            next === null
              ? `${r.cycle}回目以降`
              : next === (r.cycle ?? 0) + 1
                ? `${r.cycle}回目`
                : `${r.cycle}〜${next - 1}回目`
          return `${span}${valueText(type, r.value, currencyCode)}`
        })
        .join('、')
    }
    default:
      return '割引なし'
  }
}

/** The Polaris badge tone of each discount type in the list. */
export const discountTone: Record<DiscountType, 'info' | 'success' | 'attention' | undefined> = {
  noDiscount: undefined,
  fixedDiscount: 'success',
  recurringDiscount: 'info',
  recurringMultiDiscount: 'attention',
}

export { discountTypeLabel }

const DISCOUNT_FIELDS = ['discountType', 'valueType', 'initialValue', 'laterValue', 'afterCycle'] as const

/**
 * The price of the first cycles of a plan for a product of `basePrice` (¥1,980 by default):
 * what the editor shows under the discount, once the discount's own fields are valid (the
 * schedule's are not needed to price a cycle).
 */
export function pricePreview(
  form: SellingPlanForm,
  currencyCode: string,
  basePrice = '1980',
  cycles = 4,
): Array<{ cycle: number; price: string }> | null {
  const problems = sellingPlanProblems(form)
  if (DISCOUNT_FIELDS.some((field) => problems[field])) return null
  try {
    return Array.from({ length: cycles }, (_, i) => ({
      cycle: i + 1,
      price: formatMoney(planCyclePrice(basePrice, form, i + 1, currencyCode), currencyCode),
    }))
  } catch {
    // A value the platform would refuse (a percentage over 100): no preview.
    return null
  }
}

/** The counts of a group's list row: 「3商品・8バリエーション」. */
export const countsLabel = (g: Pick<SellingPlanGroupSummary, 'productsCount' | 'productVariantsCount'>) =>
  `${formatNumber(g.productsCount)}商品・${formatNumber(g.productVariantsCount)}バリエーション`
