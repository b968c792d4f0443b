import type { PlanProblems, SellingPlanForm } from './plan-form.ts'

/**
 * The selling plan input rules of spec §5, and only those (the platform judges the rest and
 * answers userErrors): a plan is valid only if
 * - intervalCount is present and at least 0;
 * - minCycles is present and at least 1;
 * - name and discountType are present;
 * - fixed discount: initial value at least 0 and a value type chosen;
 * - recurring discount: initial and later value each at least 0, the cycle after which the
 *   later value applies at least 1, and a value type chosen;
 * - recurring multi: a value type chosen.
 * Each problem is a Japanese message on the field that is wrong; `{}` when the plan is valid.
 * "Present" means not null (an empty field) and, for text, not blank; numbers must be finite.
 */
export function sellingPlanProblems(form: SellingPlanForm): PlanProblems {
  const problems: PlanProblems = {}
  if (isBlank(form.name)) problems.name = 'プラン名を入力してください'
  if (form.discountType === null) problems.discountType = '割引の種類を選んでください'
  atLeast(problems, 'intervalCount', form.intervalCount, 0, 'お届け間隔')
  atLeast(problems, 'minCycles', form.minCycles, 1, '最低継続回数')
  switch (form.discountType) {
    case 'fixedDiscount':
      atLeast(problems, 'initialValue', form.initialValue, 0, '割引の値')
      valueTypeChosen(problems, form)
      break
    case 'recurringDiscount':
      atLeast(problems, 'initialValue', form.initialValue, 0, '初回の割引の値')
      atLeast(problems, 'laterValue', form.laterValue, 0, '2回目以降の割引の値')
      atLeast(problems, 'afterCycle', form.afterCycle, 1, '割引を切り替える回数')
      valueTypeChosen(problems, form)
      break
    case 'recurringMultiDiscount':
      valueTypeChosen(problems, form)
      break
    default:
      break
  }
  return problems
}

/** True when the plan passes every rule of spec §5. */
export const isValidSellingPlan = (form: SellingPlanForm): boolean =>
  Object.keys(sellingPlanProblems(form)).length === 0

const isBlank = (text: string | null): boolean => text === null || text.trim() === ''

function atLeast(
  problems: PlanProblems,
  field: 'intervalCount' | 'minCycles' | 'initialValue' | 'laterValue' | 'afterCycle',
  value: number | null,
  min: number,
  label: string,
): void {
  if (value === null || !Number.isFinite(value)) problems[field] = `${label}を入力してください`
  else if (value < min) problems[field] = `${label}は${min}以上で入力してください`
}

function valueTypeChosen(problems: PlanProblems, form: SellingPlanForm): void {
  if (form.valueType === null) problems.valueType = '割引の単位（％オフ・円引きなど）を選んでください'
}
