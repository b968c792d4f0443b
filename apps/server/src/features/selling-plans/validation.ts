import type { SellingPlanGroupInput } from '@teiki/contract'
import { customCycleDiscountProblem, type SellingPlanForm, sellingPlanProblems } from '@teiki/domain'
import { AppError } from '../../http/app-error.ts'
import { formOf } from './plan-mapping.ts'

/**
 * The plans of a group request as forms, after spec §5's rules (packages/domain) and the custom
 * cycle discounts' own: the first problem is a 400 naming the plan and the field, before
 * anything is sent to the platform or written.
 */
export function validPlanForms(input: Pick<SellingPlanGroupInput, 'plans'>): SellingPlanForm[] {
  return input.plans.map((plan, index) => {
    const form = formOf(plan)
    const label = `プラン${index + 1}${form.name?.trim() ? `「${form.name.trim()}」` : ''}`
    const problems = Object.values(sellingPlanProblems(form))
    if (problems.length > 0) throw new AppError('INVALID_INPUT', `${label}: ${problems[0]}`)
    if (form.discountType === 'recurringMultiDiscount') {
      const problem = customCycleDiscountProblem(form.valueType, form.cycleDiscounts)
      if (problem) throw new AppError('INVALID_INPUT', `${label}: ${problem}`)
    }
    return form
  })
}
