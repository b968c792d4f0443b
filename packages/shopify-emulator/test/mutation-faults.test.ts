import { graphql } from 'graphql'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Context, Runtime } from '../src/context.ts'
import { Faults } from '../src/faults.ts'
import { toGid } from '../src/gid.ts'
import type { ContractRecord } from '../src/records.ts'
import { createSchema } from '../src/schema.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

describe('faults.failMutation', () => {
  let emulator: Emulator
  const shop = () => emulator.store.shop(SHOP)!
  const active = (i = 0) => shop().contracts.filter((c) => c.status === 'ACTIVE')[i]!
  const gidOf = (c: ContractRecord) => toGid('SubscriptionContract', c.id)
  const snapshot = (c: ContractRecord) => JSON.stringify(c)

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())
  beforeEach(() => emulator.faults.reset())

  it('answers the given user error with every other payload field null, changing nothing, once', async () => {
    const c = active()
    const before = snapshot(c)
    const deliveries = emulator.webhooks.deliveries.length
    emulator.faults.failMutation('subscriptionContractPause', {
      code: 'INVALID',
      field: ['subscriptionContractId'],
      message: '一時停止できません',
    })
    const failed = await gql(emulator, m.contractPause, { id: gidOf(c) })
    expect(failed.subscriptionContractPause).toEqual({
      contract: null,
      userErrors: [{ code: 'INVALID', field: ['subscriptionContractId'], message: '一時停止できません' }],
    })
    expect(snapshot(c)).toBe(before)
    await emulator.idle()
    expect(emulator.webhooks.deliveries.length).toBe(deliveries)

    // Only the named field fails, and only `times` times.
    const other = await gql(emulator, m.contractActivate, { id: gidOf(c) })
    expect(other.subscriptionContractActivate.userErrors).toEqual([])
    const paused = await gql(emulator, m.contractPause, { id: gidOf(c) })
    expect(paused.subscriptionContractPause.userErrors).toEqual([])
    expect(paused.subscriptionContractPause.contract.status).toBe('PAUSED')
    expect(c.status).toBe('PAUSED')
  })

  it('defaults to "Injected failure" without code or field, and fails `times` calls', async () => {
    const c = active(1)
    const draft = (await gql(emulator, m.contractUpdate, { contractId: gidOf(c) })).subscriptionContractUpdate
      .draft
    const lines = draft.lines.nodes.length
    emulator.faults.failMutation('subscriptionDraftLineAdd', undefined, 2)
    const input = {
      productVariantId: toGid('ProductVariant', shop().variants[0]!.id),
      quantity: 1,
      currentPrice: '1980',
    }
    for (let i = 0; i < 2; i++) {
      const failed = await gql(emulator, m.draftLineAdd, { draftId: draft.id, input })
      expect(failed.subscriptionDraftLineAdd).toEqual({
        lineAdded: null,
        draft: null,
        userErrors: [{ code: null, field: null, message: 'Injected failure' }],
      })
    }
    const drafts = shop().extra!.drafts
    expect(drafts.find((d) => toGid('SubscriptionDraft', d.id) === draft.id)!.lines).toHaveLength(lines)
    const added = await gql(emulator, m.draftLineAdd, { draftId: draft.id, input })
    expect(added.subscriptionDraftLineAdd.userErrors).toEqual([])
    expect(added.subscriptionDraftLineAdd.draft.lines.nodes).toHaveLength(lines + 1)
  })

  it('does not create what the mutation would have created', async () => {
    const c = active(2)
    const drafts = shop().extra?.drafts.length ?? 0
    emulator.faults.failMutation('subscriptionContractUpdate', { message: 'no drafts today' })
    const failed = await gql(emulator, m.contractUpdate, { contractId: gidOf(c) })
    expect(failed.subscriptionContractUpdate).toEqual({
      draft: null,
      userErrors: [{ code: null, field: null, message: 'no drafts today' }],
    })
    expect(shop().extra?.drafts.length ?? 0).toBe(drafts)
  })

  it('nulls payload fields that have resolvers of their own', async () => {
    // A payload field computed from nothing would answer even for an empty payload.
    const schema = createSchema([
      {
        SubscriptionContractPausePayload: {
          contract: () => ({ id: 1, status: 'ACTIVE', updatedAt: 0, revisionId: 1 }),
        },
      },
    ])
    const faults = new Faults()
    const context: Context = {
      shop: shop(),
      store: emulator.store,
      now: () => Date.now(),
      runtime: { faults, emit: () => {} } as unknown as Runtime,
    }
    const run = () =>
      graphql({
        schema,
        source: m.contractPause,
        contextValue: context,
        variableValues: { id: gidOf(active()) },
      })
    faults.failMutation('subscriptionContractPause')
    expect((await run()).data).toEqual({
      subscriptionContractPause: {
        contract: null,
        userErrors: [{ code: null, field: null, message: 'Injected failure' }],
      },
    })
    // Without the fault the same schema runs the mutation and that resolver.
    const ok = await run()
    expect(ok.data?.subscriptionContractPause).toMatchObject({
      contract: { id: toGid('SubscriptionContract', 1), status: 'ACTIVE' },
      userErrors: [],
    })
  })

  it('reset() clears pending failures; bad counts are refused', async () => {
    const c = active(3)
    emulator.faults.failMutation('subscriptionContractPause', {}, 5)
    emulator.faults.reset()
    const paused = await gql(emulator, m.contractPause, { id: gidOf(c) })
    expect(paused.subscriptionContractPause.userErrors).toEqual([])
    expect(() => emulator.faults.failMutation('subscriptionContractPause', {}, 0)).toThrow(/times/)
    expect(() => emulator.faults.failMutation('subscriptionContractPause', {}, 1.5)).toThrow(/times/)
  })

  it('is set over HTTP like the other knobs', async () => {
    const { url } = await emulator.listen(0)
    const set = await fetch(`${url}/emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({
        failMutation: { field: 'subscriptionContractCancel', userError: { message: 'HTTP knob' } },
      }),
    })
    expect(set.status).toBe(200)
    const c = active(4)
    const failed = await gql(emulator, m.contractCancel, { id: gidOf(c) })
    expect(failed.subscriptionContractCancel.userErrors).toEqual([
      { code: null, field: null, message: 'HTTP knob' },
    ])
    expect(c.status).toBe('ACTIVE')
    const bad = await fetch(`${url}/emulator/faults`, {
      method: 'POST',
      body: JSON.stringify({ failMutation: { field: 'subscriptionContractCancel', times: -1 } }),
    })
    expect(bad.status).toBe(400)
  })
})

describe('faults.holdMutation', () => {
  let emulator: Emulator
  const active = (i: number) => emulator.store.shop(SHOP)!.contracts.filter((c) => c.status === 'ACTIVE')[i]!

  beforeAll(async () => {
    emulator = await smallEmulator()
  })
  afterAll(() => emulator.close())

  it('runs the first `after` calls of the field, holds the next ones unanswered until released', async () => {
    const [a, b] = [active(0), active(1)]
    emulator.faults.holdMutation('subscriptionContractPause', 1)
    const first = await gql(emulator, m.contractPause, { id: toGid('SubscriptionContract', a.id) })
    expect(first.subscriptionContractPause.contract.status).toBe('PAUSED')
    let answered = false
    const second = gql(emulator, m.contractPause, { id: toGid('SubscriptionContract', b.id) }).then((r) => {
      answered = true
      return r
    })
    await expect.poll(() => emulator.faults.held).toBe(1)
    // Other fields and queries are not held.
    const other = await gql(emulator, m.contractActivate, { id: toGid('SubscriptionContract', a.id) })
    expect(other.subscriptionContractActivate.userErrors).toEqual([])
    expect(answered).toBe(false)
    expect(b.status).toBe('ACTIVE')
    emulator.faults.releaseHolds()
    expect((await second).subscriptionContractPause.contract.status).toBe('PAUSED')
    expect(emulator.faults.held).toBe(0)
    expect(emulator.faults.holding).toBe(false)
  })
})
