import { DEFAULT_BILLING_SETTINGS } from '@teiki/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { putBillingSettings } from '../src/billing/settings.ts'
import { DUE, FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomains } from './support/fixtures.ts'

// Issue 12 item 7: before each charge the platform's status, next billing date and updatedAt
// are compared with the mirror. Webhooks are not delivered in this environment, so every change
// made on the platform here is one whose webhook was lost.

const shops = testDomains('pre', ['pause', 'moved', 'note', 'dunning', 'points'])

const env = useBillingEnv({
  shops: Object.values(shops).map((domain) => ({ domain, contracts: 30 })),
  // As a first sync does: the bulk export also brings the lines' pricing policies.
  bulkSync: true,
})
beforeEach(() => env.emulator.faults.reset())

const platformContract = (domain: string, id: number) =>
  env.emulator.store.shop(domain)!.contracts.find((c) => c.id === id)!

/** Billing attempts the app made of a contract (the generated history has others). */
const attemptCounter = (domain: string, id: number) => {
  const before = env.attempts(domain, id).length
  return () => env.attempts(domain, id).length - before
}

/** `count` chargeable contracts due at DUE; every other ACTIVE contract far out. */
async function arrange(domain: string, count: number): Promise<number[]> {
  const due = env.chargeable(domain, count)
  const dates = new Map<number, Date>()
  for (const c of env.emulator.store.shop(domain)!.contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
  for (const id of due) dates.set(id, DUE)
  await env.setNextBillingDates(domain, dates)
  return due
}

async function mirror(domain: string, id: number) {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ status: string; next_billing_date: Date; note: string | null }>(
    'select status, next_billing_date, note from subscription_contracts where shop_id = $1 and id = $2',
    [shop.id, id],
  )
  return rows[0]!
}

/** Runs a GraphQL mutation on the platform as another app or the merchant in the admin would. */
async function onPlatform(domain: string, query: string, variables: Record<string, unknown>) {
  const answer = await env.emulator.graphql(domain, { query, variables })
  expect(answer.errors).toBeUndefined()
}

const contractGid = (id: number) => `gid://shopify/SubscriptionContract/${id}`

describe('the mirror is checked before each charge', () => {
  it('does not charge a contract paused on the platform whose webhook was lost, and resyncs it', async () => {
    const domain = shops.pause
    const [paused, other] = (await arrange(domain, 2)) as [number, number]
    await onPlatform(
      domain,
      'mutation($id: ID!) { subscriptionContractPause(subscriptionContractId: $id) { contract { id } userErrors { message } } }',
      { id: contractGid(paused) },
    )
    expect((await mirror(domain, paused)).status).toBe('ACTIVE')
    const [pausedAttempts, otherAttempts] = [attemptCounter(domain, paused), attemptCounter(domain, other)]

    expect(await env.run(domain, T0)).toMatchObject({ due: 2, attempted: 1, succeeded: 1, skipped: 1 })
    expect(pausedAttempts()).toBe(0)
    expect(otherAttempts()).toBe(1)
    expect((await mirror(domain, paused)).status).toBe('PAUSED')
    // No cycle was claimed for it: resumed on the platform, it is charged by a later run.
    const shop = await env.shop(domain)
    const claimed = await env.pool.query(
      'select 1 from billing_cycles where shop_id = $1 and contract_id = $2',
      [shop.id, paused],
    )
    expect(claimed.rowCount).toBe(0)
  })

  it('does not charge a contract whose next billing date moved on the platform', async () => {
    const domain = shops.moved
    const [moved] = (await arrange(domain, 1)) as [number]
    const later = new Date('2026-12-01T01:00:00Z')
    await onPlatform(
      domain,
      'mutation($id: ID!, $date: DateTime!) { subscriptionContractSetNextBillingDate(contractId: $id, date: $date) { contract { id } userErrors { message } } }',
      { id: contractGid(moved), date: later.toISOString() },
    )
    const attempts = attemptCounter(domain, moved)

    expect(await env.run(domain, T0)).toMatchObject({ due: 1, attempted: 0, skipped: 1 })
    expect(attempts()).toBe(0)
    expect((await mirror(domain, moved)).next_billing_date.toISOString()).toBe(later.toISOString())
  })

  it('charges a contract changed on the platform in another way, after mirroring the change', async () => {
    const domain = shops.note
    const [edited] = (await arrange(domain, 1)) as [number]
    const c = platformContract(domain, edited)
    c.note = '置き配希望（管理画面で変更）'
    c.updatedAt += 1000
    c.revisionId += 1
    env.emulator.store.changed()

    expect(await env.run(domain, T0)).toMatchObject({ due: 1, attempted: 1, succeeded: 1 })
    expect((await mirror(domain, edited)).note).toBe('置き配希望（管理画面で変更）')
  })

  it('does not retry a failed charge of a contract cancelled on the platform meanwhile', async () => {
    const domain = shops.dunning
    const [id] = (await arrange(domain, 1)) as [number]
    const attempts = attemptCounter(domain, id)
    const shop = await env.shop(domain)
    await putBillingSettings(env.pool, shop.id, {
      ...DEFAULT_BILLING_SETTINGS,
      retryAttempts: 2,
      retryIntervalDays: 3,
    })
    env.emulator.faults.failPayment(domain, platformContract(domain, id).customerId, 'INSUFFICIENT_FUNDS')
    expect(await env.run(domain, T0)).toMatchObject({ attempted: 1, failed: 1 })
    await onPlatform(
      domain,
      'mutation($id: ID!) { subscriptionContractCancel(subscriptionContractId: $id) { contract { id } userErrors { message } } }',
      { id: contractGid(id) },
    )
    env.emulator.faults.clearPayment(domain, platformContract(domain, id).customerId)

    const retryAt = new Date('2026-11-28T01:00:00Z')
    const run = await env.run(domain, retryAt)
    expect(run.attempted).toBe(0)
    expect(attempts()).toBe(1)
    expect((await mirror(domain, id)).status).toBe('CANCELLED')
  })
})

describe('what a charge costs', () => {
  it('asks the platform only for the check, the charge, its outcome and the next date', async () => {
    const domain = shops.points
    // A contract due on its own generated date: unchanged since the bulk export read it.
    const [id] = env.chargeable(domain, 1) as [number]
    const dueAt = new Date(platformContract(domain, id).nextBillingDate!)
    const dates = new Map<number, Date>()
    for (const c of env.emulator.store.shop(domain)!.contracts) {
      if (c.status === 'ACTIVE' && c.id !== id) dates.set(c.id, FAR)
    }
    await env.setNextBillingDates(domain, dates)
    const from = env.emulator.callLog.length
    expect(await env.run(domain, new Date(dueAt.getTime() + 3_600_000))).toMatchObject({
      attempted: 1,
      succeeded: 1,
    })
    const names = env.emulator.callLog
      .slice(from)
      .filter((c) => c.shop === domain)
      .map((c) => c.operationName)
    expect(names.filter((n) => n === 'SubscriptionChargeCheck')).toHaveLength(1)
    expect(names.filter((n) => n === 'SubscriptionBillingAttemptCreate')).toHaveLength(1)
    expect(names.filter((n) => n === 'SubscriptionContractSetNextBillingDate')).toHaveLength(1)
    // The policies came with the bulk export, and the mirror was checked: no read of either.
    expect(names).not.toContain('SubscriptionLinePricing')
    expect(names).not.toContain('SubscriptionContract')
    expect(platformContract(domain, id).nextBillingDate).toBeGreaterThan(dueAt.getTime())
  })
})
