import { DISCOUNT_TYPES, DISCOUNT_VALUE_TYPES } from '@teiki/domain'
import { describe, expect, it } from 'vitest'
import {
  PLAN_DISCOUNT_TYPES,
  PLAN_VALUE_TYPES,
  ZParentVariantParams,
  ZSellingPlanGroupInput,
  ZUpdateBoxRequest,
} from '../src/index.ts'

describe('selling plan and box schemas', () => {
  it('name the discount types and value types the domain does', () => {
    expect([...PLAN_DISCOUNT_TYPES]).toEqual([...DISCOUNT_TYPES])
    expect([...PLAN_VALUE_TYPES]).toEqual([...DISCOUNT_VALUE_TYPES])
  })

  it('let an empty §5 field through as null, for the domain to name, and refuse shapes in Japanese', () => {
    const parsed = ZSellingPlanGroupInput.parse({
      name: '定期便',
      plans: [{ name: null, interval: 'MONTH', intervalCount: null, minCycles: null, discountType: null }],
    })
    expect(parsed.plans[0]).toMatchObject({
      name: null,
      intervalCount: null,
      minCycles: null,
      discountType: null,
    })
    expect(parsed.option).toBe('お届け頻度')
    const bad = ZSellingPlanGroupInput.safeParse({
      name: '定期便',
      plans: [{ name: 'x', interval: 'HOUR', intervalCount: 1.5, minCycles: 1, discountType: 'noDiscount' }],
    })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining([
        'お届け周期は日・週・月から選んでください',
        'お届け間隔は整数で入力してください',
      ]),
    )
  })

  it('reads a parent’s variant as 0, an id or a gid', () => {
    expect(ZParentVariantParams.parse({ id: '5', variantId: '0' }).variantId).toBe('0')
    expect(
      ZParentVariantParams.parse({ id: '5', variantId: 'gid://shopify/ProductVariant/44100' }).variantId,
    ).toBe('44100')
    expect(ZParentVariantParams.safeParse({ id: '5', variantId: '-1' }).success).toBe(false)
  })

  it('a box PUT needs at least one field', () => {
    expect(ZUpdateBoxRequest.safeParse({}).error?.issues[0]?.message).toBe('保存する項目を指定してください')
    expect(ZUpdateBoxRequest.parse({ maxSelection: null })).toEqual({ maxSelection: null })
  })
})
