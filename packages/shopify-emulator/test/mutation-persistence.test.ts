import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import { gql, SHOP, smallEmulator } from './support/harness.ts'
import * as m from './support/mutations.ts'

describe('mutation state survives a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-mutations-'))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('keeps paused contracts, drafts and webhook subscriptions in the state file', async () => {
    const first = await smallEmulator({ dataDir })
    const contract = first.store.shop(SHOP)!.contracts.find((c) => c.status === 'ACTIVE')!
    const id = toGid('SubscriptionContract', contract.id)
    await gql(first, m.contractPause, { id })
    const draft = (await gql(first, m.contractUpdate, { contractId: id })).subscriptionContractUpdate.draft
    first.webhooks.subscribe(SHOP, 'orders/create', 'http://127.0.0.1:9/hooks')
    await first.close()

    const second = await smallEmulator({ dataDir })
    try {
      expect(second.store.shop(SHOP)!.contracts.find((c) => c.id === contract.id)!.status).toBe('PAUSED')
      const reread = await second.graphql(SHOP, {
        query: 'query D($id: ID!) { subscriptionDraft(id: $id) { id status } }',
        variables: { id: draft.id },
      })
      expect(reread.data).toEqual({ subscriptionDraft: { id: draft.id, status: 'PAUSED' } })
      expect(second.store.shop(SHOP)!.extra!.webhookSubscriptions.map((s) => s.topic)).toEqual([
        'orders/create',
      ])
    } finally {
      await second.close()
    }
  })
})
