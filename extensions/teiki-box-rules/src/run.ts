// The box rules at the cart and at checkout (Cart and Checkout Validation API 2025-04, target
// purchase.validation.run). A box's products are cart lines carrying the box block's line
// properties `_box_id` (which box) and `_box` (its name, as the shopper saw it); the lines of one
// box bought on one selling plan are one selection, whose quantities must add up to between the
// box's minimum and maximum. The rules are the app's: the validation's metafield teiki.box_rules,
// `{ boxes: [{ id, name, minSelection, maxSelection }] }`, rewritten on every box save.

/** The input `src/run.graphql` asks for, as the platform hands it over. */
export type RunInput = {
  cart: {
    lines: Array<{
      quantity: number
      boxId: { value: string | null } | null
      boxName: { value: string | null } | null
      sellingPlanAllocation: { sellingPlan: { id: string } } | null
    }>
  }
  validation: { metafield: { jsonValue: unknown } | null }
}

/** The 2025-04 result: each error blocks checkout; `$.cart` shows it for the cart as a whole. */
export type FunctionRunResult = { errors: Array<{ localizedMessage: string; target: string }> }

export type BoxRule = { id: string; name: string; minSelection: number; maxSelection: number }

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0

/** The rules in the metafield; anything unreadable is no rule (the cart is then not held back). */
export function rulesOf(value: unknown): Map<string, BoxRule> {
  const rules = new Map<string, BoxRule>()
  const boxes = (value as { boxes?: unknown } | null)?.boxes
  if (!Array.isArray(boxes)) return rules
  for (const box of boxes as Array<Partial<BoxRule> | null>) {
    if (!box || box.id === undefined || !isCount(box.minSelection) || !isCount(box.maxSelection)) continue
    const id = String(box.id)
    rules.set(id, {
      id,
      name: String(box.name ?? ''),
      minSelection: box.minSelection,
      maxSelection: box.maxSelection,
    })
  }
  return rules
}

/** What the shopper reads when `count` products of `box` are chosen, or null when that is allowed. */
export function selectionProblem(box: BoxRule, name: string, count: number): string | null {
  const { minSelection: min, maxSelection: max } = box
  if (count >= min && count <= max) return null
  const now = `（現在${count}個）`
  if (min === max) return `「${name}」は${min}個ちょうどお選びください${now}`
  if (count < min) return `「${name}」は${min}個以上お選びください${now}`
  return `「${name}」は${max}個までお選びいただけます${now}`
}

/**
 * One error per box selection (box and plan) whose count is outside its rule. Lines without
 * `_box_id`, and lines of a box the rules do not name (deleted, or not complete), are left alone.
 */
export function run(input: RunInput): FunctionRunResult {
  const rules = rulesOf(input.validation.metafield?.jsonValue ?? null)
  const selections = new Map<string, { rule: BoxRule; name: string; count: number }>()
  for (const line of input.cart.lines) {
    const boxId = line.boxId?.value
    const rule = boxId ? rules.get(boxId) : undefined
    if (!rule) continue
    const key = `${rule.id}\u0000${line.sellingPlanAllocation?.sellingPlan.id ?? ''}`
    const known = selections.get(key)
    if (known) known.count += line.quantity
    else
      selections.set(key, {
        rule,
        name: rule.name || line.boxName?.value || '詰め合わせ',
        count: line.quantity,
      })
  }
  const errors: FunctionRunResult['errors'] = []
  for (const { rule, name, count } of selections.values()) {
    const message = selectionProblem(rule, name, count)
    if (message) errors.push({ localizedMessage: message, target: '$.cart' })
  }
  return { errors }
}
