import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { ContractRecord } from '../src/records.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

describe('contract status mutations', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const withStatus = (status: string) => shop().contracts.find((c) => c.status === status)!
  const gidOf = (c: ContractRecord) => toGid('SubscriptionContract', c.id)

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())

  it('pauses an active contract, bumping updatedAt and revisionId', async () => {
    const c = withStatus('ACTIVE')
    const before = { revision: c.revisionId, updatedAt: c.updatedAt }
    const data = await gql(emulator, m.contractPause, { id: gidOf(c) })
    expect(data.subscriptionContractPause.userErrors).toEqual([])
    expect(data.subscriptionContractPause.contract.status).toBe('PAUSED')
    expect(Number(data.subscriptionContractPause.contract.revisionId)).toBe(before.revision + 1)
    expect(c.updatedAt).toBeGreaterThan(before.updatedAt)
    const again = await gql(emulator, m.contractActivate, { id: gidOf(c) })
    expect(again.subscriptionContractActivate.contract.status).toBe('ACTIVE')
  })

  it('setting the status a contract already has is a no-op without error', async () => {
    const c = withStatus('ACTIVE')
    const revision = c.revisionId
    const data = await gql(emulator, m.contractActivate, { id: gidOf(c) })
    expect(data.subscriptionContractActivate.userErrors).toEqual([])
    expect(c.revisionId).toBe(revision)
  })

  it.each([
    ['CANCELLED', m.contractActivate, 'subscriptionContractActivate'],
    ['CANCELLED', m.contractPause, 'subscriptionContractPause'],
    ['EXPIRED', m.contractActivate, 'subscriptionContractActivate'],
  ])('a %s contract cannot be moved by %#', async (status, doc, field) => {
    const c = withStatus(status)
    const data = await gql(emulator, doc, { id: gidOf(c) })
    expect(data[field].userErrors[0]).toMatchObject({
      code: 'CONTRACT_TERMINATED',
      field: ['subscriptionContractId'],
    })
    expect(c.status).toBe(status)
  })

  it('fails, expires and cancels live contracts; unknown ids are user errors', async () => {
    const [a, b, c] = shop()
      .contracts.filter((x) => x.status === 'ACTIVE')
      .slice(1, 4) as [ContractRecord, ContractRecord, ContractRecord]
    expect(
      (await gql(emulator, m.contractFail, { id: gidOf(a) })).subscriptionContractFail.contract.status,
    ).toBe('FAILED')
    expect(
      (await gql(emulator, m.contractExpire, { id: gidOf(b) })).subscriptionContractExpire.contract.status,
    ).toBe('EXPIRED')
    expect(
      (await gql(emulator, m.contractCancel, { id: gidOf(c) })).subscriptionContractCancel.contract.status,
    ).toBe('CANCELLED')
    const unknown = await gql(emulator, m.contractCancel, { id: toGid('SubscriptionContract', 1) })
    expect(unknown.subscriptionContractCancel).toMatchObject({
      contract: null,
      userErrors: [{ code: 'INVALID' }],
    })
  })

  it('sets the next billing date; a bad date is a user error', async () => {
    const c = withStatus('ACTIVE')
    const data = await gql(emulator, m.setNextBillingDate, {
      contractId: gidOf(c),
      date: '2025-07-15T01:00:00Z',
    })
    expect(data.subscriptionContractSetNextBillingDate.contract.nextBillingDate).toBe('2025-07-15T01:00:00Z')
    const bad = await gql(emulator, m.setNextBillingDate, { contractId: gidOf(c), date: 'someday' })
    expect(bad.subscriptionContractSetNextBillingDate.userErrors[0]).toMatchObject({
      code: 'INVALID',
      field: ['date'],
    })
  })
})

describe('contract drafts', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const active = () => shop().contracts.filter((c) => c.status === 'ACTIVE')

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())

  const newDraft = async (c: ContractRecord) => {
    const data = await gql(emulator, m.contractUpdate, { contractId: toGid('SubscriptionContract', c.id) })
    expect(data.subscriptionContractUpdate.userErrors).toEqual([])
    return data.subscriptionContractUpdate.draft
  }

  it('edits a draft and commits it atomically', async () => {
    const c = active()[0]!
    const revision = c.revisionId
    const draft = await newDraft(c)
    expect(draft.lines.nodes).toHaveLength(c.lines.length)
    expect(draft.originalContract.id).toBe(toGid('SubscriptionContract', c.id))

    const updated = await gql(emulator, m.draftUpdate, {
      draftId: draft.id,
      input: {
        note: '玄関前に置いてください',
        nextBillingDate: '2025-08-01T01:00:00Z',
        deliveryPrice: '550',
        customAttributes: [{ key: '配送希望時間帯', value: '午前中' }],
        billingPolicy: {
          interval: 'MONTH',
          intervalCount: 2,
          minCycles: 3,
          anchors: [{ type: 'MONTHDAY', day: 15 }],
        },
        deliveryPolicy: { interval: 'MONTH', intervalCount: 2, anchors: [{ type: 'MONTHDAY', day: 15 }] },
        deliveryMethod: {
          shipping: {
            address: {
              address1: '千代田1-1',
              city: '千代田区',
              provinceCode: 'JP-13',
              zip: '100-0001',
              countryCode: 'JP',
            },
          },
        },
      },
    })
    expect(updated.subscriptionDraftUpdate.userErrors).toEqual([])
    const d = updated.subscriptionDraftUpdate.draft
    expect(d).toMatchObject({
      note: '玄関前に置いてください',
      nextBillingDate: '2025-08-01T01:00:00Z',
      deliveryPrice: { amount: '550.0', currencyCode: 'JPY' },
      billingPolicy: {
        interval: 'MONTH',
        intervalCount: 2,
        minCycles: 3,
        anchors: [{ type: 'MONTHDAY', day: 15, month: null, cutoffDay: null }],
      },
    })
    expect(d.deliveryMethod.address).toMatchObject({ address1: '千代田1-1', zip: '100-0001' })
    // The contract is untouched until the commit.
    expect(c.note).not.toBe('玄関前に置いてください')

    const variant = shop().variants.at(-1)!
    const added = await gql(emulator, m.draftLineAdd, {
      draftId: draft.id,
      input: { productVariantId: toGid('ProductVariant', variant.id), quantity: 2, currentPrice: '1980' },
    })
    expect(added.subscriptionDraftLineAdd.userErrors).toEqual([])
    const line = added.subscriptionDraftLineAdd.lineAdded
    expect(line).toMatchObject({
      quantity: 2,
      currentPrice: { amount: '1980.0', currencyCode: 'JPY' },
      sku: variant.sku,
    })

    const changed = await gql(emulator, m.draftLineUpdate, {
      draftId: draft.id,
      lineId: line.id,
      input: { quantity: 3 },
    })
    expect(changed.subscriptionDraftLineUpdate.lineUpdated.quantity).toBe(3)

    const firstLine = draft.lines.nodes[0].id
    const removed = await gql(emulator, m.draftLineRemove, { draftId: draft.id, lineId: firstLine })
    expect(removed.subscriptionDraftLineRemove.lineRemoved.id).toBe(firstLine)

    const code = await gql(emulator, m.draftDiscountCodeApply, { draftId: draft.id, redeemCode: 'welcome10' })
    expect(code.subscriptionDraftDiscountCodeApply.appliedDiscount).toMatchObject({
      redeemCode: 'WELCOME10',
      rejectionReason: null,
    })

    const committed = await gql(emulator, m.draftCommit, { draftId: draft.id })
    expect(committed.subscriptionDraftCommit.userErrors).toEqual([])
    const contract = committed.subscriptionDraftCommit.contract
    expect(Number(contract.revisionId)).toBe(revision + 1)
    expect(contract.note).toBe('玄関前に置いてください')
    expect(contract.deliveryPrice.amount).toBe('550.0')
    expect(contract.lines.nodes.map((l: { id: string }) => l.id)).toContain(line.id)
    expect(contract.lines.nodes.map((l: { id: string }) => l.id)).not.toContain(firstLine)
    expect(contract.discounts.nodes).toEqual([
      {
        id: expect.stringMatching(/^gid:\/\/shopify\/SubscriptionManualDiscount\/\d+$/),
        title: 'WELCOME10',
        usageCount: 0,
        recurringCycleLimit: null,
        targetType: 'LINE_ITEM',
        type: 'CODE_DISCOUNT',
        value: { __typename: 'SubscriptionDiscountPercentageValue', percentage: 10 },
        entitledLines: { all: true },
      },
    ])
    expect(c.billingPolicy.intervalCount).toBe(2)

    const twice = await gql(emulator, m.draftCommit, { draftId: draft.id })
    expect(twice.subscriptionDraftCommit.userErrors[0]).toMatchObject({ code: 'COMMITTED' })
  })

  it('rejects bad draft input with user errors and leaves the draft unchanged', async () => {
    const c = active()[1]!
    const draft = await newDraft(c)
    const bad = await gql(emulator, m.draftUpdate, {
      draftId: draft.id,
      input: {
        note: 'ok',
        deliveryPrice: '-1',
        billingPolicy: { interval: 'MONTH', intervalCount: 1, minCycles: 5, maxCycles: 2 },
      },
    })
    const codes = bad.subscriptionDraftUpdate.userErrors.map((e: { code: string }) => e.code)
    expect(codes).toEqual([
      'GREATER_THAN_OR_EQUAL_TO',
      'SELLING_PLAN_MAX_CYCLES_MUST_BE_GREATER_THAN_MIN_CYCLES',
    ])
    expect(bad.subscriptionDraftUpdate.draft.note).toBe(draft.note)

    const unknownVariant = await gql(emulator, m.draftLineAdd, {
      draftId: draft.id,
      input: { productVariantId: toGid('ProductVariant', 1), quantity: 1, currentPrice: '100' },
    })
    expect(unknownVariant.subscriptionDraftLineAdd.userErrors[0]).toMatchObject({
      field: ['input', 'productVariantId'],
    })
    const zero = await gql(emulator, m.draftLineUpdate, {
      draftId: draft.id,
      lineId: draft.lines.nodes[0].id,
      input: { quantity: 0 },
    })
    expect(zero.subscriptionDraftLineUpdate.userErrors[0]).toMatchObject({
      code: 'GREATER_THAN',
      field: ['input', 'quantity'],
    })
    const noLine = await gql(emulator, m.draftLineRemove, {
      draftId: draft.id,
      lineId: toGid('SubscriptionLine', 1),
    })
    expect(noLine.subscriptionDraftLineRemove.userErrors[0]).toMatchObject({ field: ['lineId'] })
    const noCode = await gql(emulator, m.draftDiscountCodeApply, { draftId: draft.id, redeemCode: 'NOPE' })
    expect(noCode.subscriptionDraftDiscountCodeApply).toMatchObject({
      appliedDiscount: null,
      userErrors: [{ field: ['redeemCode'] }],
    })
    const noDiscount = await gql(emulator, m.draftDiscountRemove, {
      draftId: draft.id,
      discountId: toGid('SubscriptionManualDiscount', 1),
    })
    expect(noDiscount.subscriptionDraftDiscountRemove.userErrors[0]).toMatchObject({ field: ['discountId'] })
    const noDraft = await gql(emulator, m.draftCommit, { draftId: toGid('SubscriptionDraft', 1) })
    expect(noDraft.subscriptionDraftCommit.userErrors[0]).toMatchObject({ field: ['draftId'] })
  })

  it('removes an applied code and refuses a draft made stale by another commit', async () => {
    const c = active()[2]!
    const first = await newDraft(c)
    const second = await newDraft(c)
    const applied = await gql(emulator, m.draftDiscountCodeApply, {
      draftId: first.id,
      redeemCode: 'TEIKI500',
    })
    const id = applied.subscriptionDraftDiscountCodeApply.appliedDiscount.id
    const removed = await gql(emulator, m.draftDiscountRemove, { draftId: first.id, discountId: id })
    expect(removed.subscriptionDraftDiscountRemove.discountRemoved).toEqual({
      __typename: 'SubscriptionAppliedCodeDiscount',
      id,
    })
    expect(
      (await gql(emulator, m.draftCommit, { draftId: first.id })).subscriptionDraftCommit.userErrors,
    ).toEqual([])
    const stale = await gql(emulator, m.draftCommit, { draftId: second.id })
    expect(stale.subscriptionDraftCommit.userErrors[0]).toMatchObject({ code: 'STALE_CONTRACT' })
  })

  it('shares no policy object between a committed contract and its selling plan', async () => {
    const c = active()[3]!
    const plans = shop().sellingPlanGroups.flatMap((g) => g.sellingPlans)
    const before = plans.map((p) => JSON.stringify(p.billingPolicy))
    const draft = await newDraft(c)
    await gql(emulator, m.draftUpdate, {
      draftId: draft.id,
      input: { billingPolicy: { interval: 'WEEK', intervalCount: 3 } },
    })
    await gql(emulator, m.draftCommit, { draftId: draft.id })
    expect(plans.map((p) => JSON.stringify(p.billingPolicy))).toEqual(before)
  })
})
