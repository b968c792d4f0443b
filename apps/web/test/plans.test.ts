import type { PlanResponse } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { currentPlanView, offerAction } from '../src/features/plans/plan-model.ts'
import { trialLabel } from '../src/features/plans/plan-status.ts'

describe('trialLabel', () => {
  it.each([
    [14, '14日間'],
    [0, 'なし'],
    [null, 'なし'],
  ])('%s', (days, expected) => {
    expect(trialLabel(days)).toBe(expected)
  })
})

const response = (
  name: string,
  amount: string,
  catalogueKey: PlanResponse['catalogueKey'],
): PlanResponse => ({
  currentPlan: {
    id: '1',
    name,
    status: 'ACTIVE',
    price: { amount, currencyCode: 'JPY' },
    trialDays: 14,
    currentPeriodEnd: null,
    test: false,
  },
  isActive: true,
  catalogueKey,
  shopifyPlan: 'Basic',
})

// Issue 22 item 2: プラン showed 「スタンダードプラン」 at ¥4,980／月 above a catalogue pricing
// スタンダード at ¥9,800, and offered このプランにする on the plan already held.
describe('プラン agrees with itself', () => {
  it('names and prices the current plan as the catalogue does', () => {
    expect(currentPlanView(response('Teiki スタンダード', '9800.0', 'standard'))).toEqual({
      name: 'スタンダード',
      listed: true,
      monthly: '¥9,800／月',
      note: null,
    })
  })

  it('a plan the catalogue does not have is shown by the platform’s name, and said so', () => {
    expect(currentPlanView(response('スタンダードプラン', '4980.0', null))).toEqual({
      name: 'スタンダードプラン',
      listed: false,
      monthly: '¥4,980／月',
      note: '「スタンダードプラン」は現在のプラン一覧にないプランです（以前の料金体系など）。料金はストアのご請求のとおりです。',
    })
  })

  it('a catalogue plan charged at another price says what the catalogue asks today', () => {
    expect(currentPlanView(response('Teiki スタンダード', '4980.0', 'standard'))).toMatchObject({
      name: 'スタンダード',
      monthly: '¥4,980／月',
      note: 'ご契約時の料金です（現在の一覧の料金は ¥9,800／月）。',
    })
  })

  it('the held plan’s card is 現在のプラン; the others, and every card without an active plan, offer the change', () => {
    const held = response('Teiki スタンダード', '9800.0', 'standard')
    expect(['light', 'standard', 'pro'].map((k) => offerAction(k as 'light', held))).toEqual([
      'choose',
      'current',
      'choose',
    ])
    expect(offerAction('standard', { ...held, isActive: false })).toBe('choose')
    expect(offerAction('standard', response('スタンダードプラン', '4980.0', null))).toBe('choose')
  })
})
