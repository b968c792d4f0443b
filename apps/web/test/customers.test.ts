import { ZSegmentConditions } from '@teiki/contract'
import { describe, expect, it } from 'vitest'
import { EMPTY_FORM, toDraft, toForm } from '../src/features/customers/segment-form-model.ts'

describe('segment form', () => {
  it('an empty form is a segment of every customer', () => {
    expect(toDraft({ ...EMPTY_FORM, name: '全員' })).toEqual({ name: '全員', groupId: null, conditions: {} })
  })

  it('turns typed fields into conditions the API accepts (full-width digits, yen commas, 読点)', () => {
    const draft = toDraft({
      ...EMPTY_FORM,
      name: '春キャンペーン',
      groupId: '3',
      traffic: ['instagram / social', 'google'],
      statuses: ['ACTIVE'],
      orderMin: '２',
      ltvMin: '10,000',
      ltvMax: '',
      firstFrom: '2026-04-01',
      sellingPlanGroupIds: ['4200000001'],
      tagsAny: 'VIP、定期購入者',
      tagsNone: '休眠',
    })
    expect(draft.conditions).toEqual({
      traffic: [{ source: 'instagram', medium: 'social' }, { source: 'google' }],
      statuses: ['ACTIVE'],
      orderCount: { min: 2 },
      lifetimeValue: { min: 10000 },
      firstOrderDate: { from: '2026-04-01' },
      sellingPlanGroupIds: ['4200000001'],
      tags: { any: ['VIP', '定期購入者'], none: ['休眠'] },
    })
    expect(ZSegmentConditions.safeParse(draft.conditions).success).toBe(true)
  })

  it('a saved segment fills the form back the same', () => {
    const draft = toDraft({ ...EMPTY_FORM, name: 'x', traffic: ['a / b'], orderMax: '5', tagsAny: 'VIP' })
    const form = toForm({
      id: '1',
      name: 'x',
      groupId: null,
      groupName: null,
      conditions: draft.conditions as never,
      description: [],
      error: null,
      createdAt: '',
      updatedAt: '',
    })
    expect(toDraft(form)).toEqual(draft)
  })
})
