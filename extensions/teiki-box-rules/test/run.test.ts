import { describe, expect, it } from 'vitest'
import { type BoxRule, type RunInput, run } from '../src/run.ts'

// The function alone, on inputs shaped as src/run.graphql asks: each boundary of a box's rule.

const PLAN_A = 'gid://shopify/SellingPlan/11'
const PLAN_B = 'gid://shopify/SellingPlan/12'
const range: BoxRule = { id: '7', name: 'よりどりボックス', minSelection: 2, maxSelection: 4 }
const exact: BoxRule = { id: '8', name: '3品ボックス', minSelection: 3, maxSelection: 3 }

type Line = { box?: string; name?: string; plan?: string | null; quantity?: number }
const line = ({ box, name, plan = PLAN_A, quantity = 1 }: Line): RunInput['cart']['lines'][number] => ({
  quantity,
  boxId: box === undefined ? null : { value: box },
  boxName: name === undefined ? null : { value: name },
  sellingPlanAllocation: plan === null ? null : { sellingPlan: { id: plan } },
})
/** The validation has no metafield (the app never wrote one). */
const NO_METAFIELD = Symbol('none')
const input = (lines: Line[], rules: unknown = { boxes: [range, exact] }): RunInput => ({
  cart: { lines: lines.map(line) },
  validation: { metafield: rules === NO_METAFIELD ? null : { jsonValue: rules } },
})
const messages = (i: RunInput) => run(i).errors.map((e) => e.localizedMessage)
const ofBox = (box: string, n: number, plan?: string) =>
  Array.from({ length: n }, () => ({ box, plan }) as Line)

describe('box rules function', () => {
  it.each([
    // [box, products chosen, the message or null]
    ['7', 1, '「よりどりボックス」は2個以上お選びください（現在1個）'], // min − 1
    ['7', 2, null], // min
    ['7', 4, null], // max
    ['7', 5, '「よりどりボックス」は4個までお選びいただけます（現在5個）'], // max + 1
    ['8', 2, '「3品ボックス」は3個ちょうどお選びください（現在2個）'], // exact − 1
    ['8', 3, null], // exact
    ['8', 4, '「3品ボックス」は3個ちょうどお選びください（現在4個）'], // exact + 1
  ])('box %s with %i products: %s', (box, n, expected) => {
    expect(messages(input(ofBox(box, n)))).toEqual(expected === null ? [] : [expected])
  })

  it('answers the 2025-04 result: errors with localizedMessage, targeted at the cart', () => {
    expect(run(input(ofBox('7', 1)))).toEqual({
      errors: [
        { localizedMessage: '「よりどりボックス」は2個以上お選びください（現在1個）', target: '$.cart' },
      ],
    })
  })

  it('counts quantities, not lines', () => {
    expect(messages(input([{ box: '7', quantity: 2 }]))).toEqual([])
    expect(
      messages(
        input([
          { box: '7', quantity: 3 },
          { box: '7', quantity: 2 },
        ]),
      ),
    ).toEqual(['「よりどりボックス」は4個までお選びいただけます（現在5個）'])
  })

  it('judges two boxes in one cart each on its own rule', () => {
    expect(messages(input([...ofBox('7', 2), ...ofBox('8', 3)]))).toEqual([])
    expect(messages(input([...ofBox('7', 1), ...ofBox('8', 3)]))).toEqual([
      '「よりどりボックス」は2個以上お選びください（現在1個）',
    ])
    expect(messages(input([...ofBox('7', 5), ...ofBox('8', 1)]))).toHaveLength(2)
  })

  it('counts the lines of each selling plan apart: a box bought on two plans is two selections', () => {
    // 3 + 3 on two plans: each is within 2〜4, though 6 in all is above the maximum.
    expect(messages(input([...ofBox('7', 3, PLAN_A), ...ofBox('7', 3, PLAN_B)]))).toEqual([])
    // 3 on A and 1 on B: 4 in all is within the rule, but the B box has 1.
    expect(messages(input([...ofBox('7', 3, PLAN_A), ...ofBox('7', 1, PLAN_B)]))).toEqual([
      '「よりどりボックス」は2個以上お選びください（現在1個）',
    ])
  })

  it('leaves lines alone that are not of a box the rules name', () => {
    const others: Line[] = [{ quantity: 9 }, { plan: null, quantity: 3 }, { box: '99', quantity: 1 }]
    expect(messages(input(others))).toEqual([])
    expect(messages(input([...others, ...ofBox('7', 2)]))).toEqual([])
  })

  it('holds nothing back without rules: no metafield, or one it cannot read', () => {
    expect(run(input(ofBox('7', 1), NO_METAFIELD))).toEqual({ errors: [] })
    expect(messages(input(ofBox('7', 1), null))).toEqual([])
    expect(messages(input(ofBox('7', 1), { boxes: 'nope' }))).toEqual([])
    expect(
      messages(input(ofBox('7', 1), { boxes: [{ id: '7', minSelection: 'two', maxSelection: 4 }] })),
    ).toEqual([])
  })

  it('names the box as the rules do, or by its line property when the rule has no name', () => {
    const nameless = { boxes: [{ id: '7', minSelection: 2, maxSelection: 4 }] }
    expect(messages(input([{ box: '7', name: '春の箱' }], nameless))).toEqual([
      '「春の箱」は2個以上お選びください（現在1個）',
    ])
  })
})
