import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { ContractRecord } from '../src/records.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

// subscriptionDraftDiscountAdd (the retention offers of マイページ, issue 26) as the platform
// does it: a manual discount on every line, validated with userErrors, applied to the orders
// of the next `recurringCycleLimit` billing cycles only, never below 0.

const discountAdd = `mutation DraftDiscountAdd($draftId: ID!, $input: SubscriptionManualDiscountInput!) {
  subscriptionDraftDiscountAdd(draftId: $draftId, input: $input) {
    discountAdded { id title recurringCycleLimit usageCount value { __typename ... on SubscriptionDiscountPercentageValue { percentage } } }
    userErrors { code field message }
  }
}`

describe('subscriptionDraftDiscountAdd', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const chargeable = () =>
    shop().contracts.filter((c) => {
      const pm = shop().paymentMethods.find((p) => p.id === c.paymentMethodId)
      const card = pm?.instrument
      return (
        c.status === 'ACTIVE' &&
        pm?.revokedAt === null &&
        card?.__typename === 'CustomerCreditCard' &&
        card.expiryYear >= 2027
      )
    })
  beforeAll(async () => {
    emulator = await smallEmulator({})
  })
  afterAll(() => emulator.close())

  async function draftOf(c: ContractRecord): Promise<string> {
    const data = await gql(emulator, m.contractUpdate, { contractId: toGid('SubscriptionContract', c.id) })
    return data.subscriptionContractUpdate.draft.id
  }

  async function charge(c: ContractRecord, key: string): Promise<number> {
    const created = await gql(emulator, m.billingAttemptCreate, {
      contractId: toGid('SubscriptionContract', c.id),
      input: { idempotencyKey: key, originTime: '2025-06-01T01:00:00Z' },
    })
    await emulator.idle()
    const id = created.subscriptionBillingAttemptCreate.subscriptionBillingAttempt.id
    const after = (await gql(emulator, m.billingAttemptQuery, { id })).subscriptionBillingAttempt
    return Number(after.order.totalPriceSet.shopMoney.amount)
  }

  it('refuses a value of both kinds, a percentage over 100 and a cycle limit of 0, changing nothing', async () => {
    const c = chargeable()[0]!
    const draftId = await draftOf(c)
    for (const input of [
      { value: { percentage: 10, fixedAmount: { amount: 100 } } },
      { value: { percentage: 120 } },
      { value: { percentage: 10 }, recurringCycleLimit: 0 },
    ]) {
      const data = await gql(emulator, discountAdd, { draftId, input: { title: 'x', ...input } })
      expect(data.subscriptionDraftDiscountAdd.discountAdded).toBeNull()
      expect(data.subscriptionDraftDiscountAdd.userErrors).toHaveLength(1)
    }
  })

  it('10% off for one order: the next order is discounted, the one after is not', async () => {
    const c = chargeable()[1]!
    const full = c.lines.reduce((s, l) => s + l.currentPrice * l.quantity, 0)
    const draftId = await draftOf(c)
    const added = await gql(emulator, discountAdd, {
      draftId,
      input: {
        title: '解約防止オファー: 次回10%オフ',
        value: { percentage: 10 },
        recurringCycleLimit: 1,
        entitledLines: { all: true },
      },
    })
    expect(added.subscriptionDraftDiscountAdd.userErrors).toEqual([])
    expect(added.subscriptionDraftDiscountAdd.discountAdded).toMatchObject({
      title: '解約防止オファー: 次回10%オフ',
      recurringCycleLimit: 1,
      usageCount: 0,
      value: { percentage: 10 },
    })
    const committed = await gql(emulator, m.draftCommit, { draftId })
    expect(committed.subscriptionDraftCommit.userErrors).toEqual([])
    expect(await charge(c, 'offer-1')).toBe(full - Math.round(full * 0.1) + c.deliveryPrice)
    expect(await charge(c, 'offer-2')).toBe(full + c.deliveryPrice)
  })
})
