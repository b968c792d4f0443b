import { describe, expect, it } from 'vitest'
import { fetchBillingAttempts } from '../src/billing/platform.ts'
import { toGid } from '../src/platform/gid.ts'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomains } from './support/fixtures.ts'

// The billing webhook, the poll job and a run may settle one cycle at the same moment
// (billing/outcomes.ts). Both move the contract on through a draft when it carries an お届け予定日;
// the second draft finds the contract changed (STALE_CONTRACT) and must commit again from a
// fresh draft, not fail the settlement (it once answered 500 to `npm run billing`).

const shops = testDomains('srace', ['one'])
const env = useBillingEnv({ shops: [{ domain: shops.one, contracts: 20 }] })
const DUE_AT = new Date('2026-11-24T01:00:00Z')

describe('two settlements of one successful charge at once', () => {
  it('both finish; the contract moves on once, to the same dates; one order, one billed event', async () => {
    const domain = shops.one
    const [id] = env.chargeable(domain, 1) as [number]
    const contract = env.emulator.store.shop(domain)!.contracts.find((c) => c.id === id)!
    contract.customAttributes = [{ key: 'お届け予定日', value: '2026-11-20' }]
    const dates = new Map<number, Date>()
    for (const c of env.emulator.store.shop(domain)!.contracts)
      if (c.status === 'ACTIVE') dates.set(c.id, FAR)
    dates.set(id, DUE_AT)
    await env.setNextBillingDates(domain, dates)
    const attemptsBefore = env.attempts(domain, id).length
    // The run stops right after asking for the charge: the cycle waits for its outcome.
    const stop = new Error('stop after the charge is asked')
    await expect(
      env.run(domain, T0, { hooks: { afterAttemptCreated: () => Promise.reject(stop) } }),
    ).rejects.toBe(stop)
    const shop = await env.shop(domain)
    const revisionBefore = contract.revisionId
    const attemptGid = toGid('SubscriptionBillingAttempt', env.attempts(domain, id).at(-1)!.id)
    // The platform processes the charge a moment later.
    await expect
      .poll(async () => (await fetchBillingAttempts(env.clients.clientFor(shop), [attemptGid]))[0]?.ready, {
        timeout: 10_000,
        interval: 20,
      })
      .toBe(true)
    const [attempt] = await fetchBillingAttempts(env.clients.clientFor(shop), [attemptGid])

    const results = await Promise.all([
      env.app.billingEngine.onAttemptOutcome(shop, attempt!),
      env.app.billingEngine.onAttemptOutcome(shop, attempt!),
    ])
    expect(results).toEqual(['succeeded', 'succeeded'])
    // Both drafts committed (the second from a fresh draft) and set the same.
    expect(contract.revisionId).toBeGreaterThan(revisionBefore)
    // Moved on past the cycle's due day (by the contract's own plan), and the mirror says the same.
    const next = new Date(contract.nextBillingDate!)
    expect(next.getTime()).toBeGreaterThan(DUE_AT.getTime())
    const mirrored = await env.pool.query<{ next: Date }>(
      'select next_billing_date as next from subscription_contracts where shop_id = $1 and id = $2',
      [shop.id, id],
    )
    expect(mirrored.rows[0]!.next.toISOString()).toBe(next.toISOString())
    expect(contract.customAttributes).toContainEqual({ key: 'お届け予定日', value: expect.any(String) })
    expect(env.attempts(domain, id)).toHaveLength(attemptsBefore + 1)
    const { rows } = await env.pool.query<{ n: number }>(
      `select count(*)::int as n from contract_events where shop_id = $1 and contract_id = $2 and type = 'billed'`,
      [shop.id, id],
    )
    expect(rows[0]!.n).toBe(1)
  })
})
