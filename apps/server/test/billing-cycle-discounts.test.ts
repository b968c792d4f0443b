import { describe, expect, it } from 'vitest'
import { DUE, FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomain } from './support/fixtures.ts'

// Custom cycle discounts (ADR 0013) in the billing engine: a line sold with a recurring-multi
// plan is charged each cycle at its plan's rule for that cycle, before the charge and for the
// next one; the policies kept in the mirror stay the platform's.

const domain = testDomain('bill-multi')

const env = useBillingEnv({ shops: [{ domain, contracts: 20 }] })

const platformShop = () => env.emulator.store.shop(domain)!
const platformContract = (id: number) => platformShop().contracts.find((c) => c.id === id)!

describe('recurring multi discounts in the billing engine', () => {
  it('prices the charged cycle and the next one by the plan’s rules, not by the line’s own policy', async () => {
    const shop = await env.shop(domain)
    const [id, untouched] = env.chargeable(domain, 2) as [number, number]
    const dates = new Map<number, Date>()
    for (const c of platformShop().contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
    dates.set(id, DUE)
    dates.set(untouched, DUE)
    const plan = platformShop().sellingPlanGroups[0]!.sellingPlans[0]!
    const orders = async (contractId: number) =>
      (
        await env.pool.query<{ n: number }>(
          'select count(*)::int as n from orders where shop_id = $1 and contract_id = $2 and cancelled_at is null',
          [shop.id, contractId],
        )
      ).rows[0]!.n
    const billedNow = (await orders(id)) + 1
    // Bought with the plan at ¥2,000 a unit: the platform holds its cycle-1 policy (10% off).
    const cycle1 = {
      __typename: 'SellingPlanFixedPricingPolicy' as const,
      adjustmentType: 'PERCENTAGE' as const,
      adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue' as const, percentage: 10 },
    }
    for (const contractId of [id, untouched]) {
      const c = platformContract(contractId)
      c.lines = c.lines.map((l, i) =>
        i === 0
          ? {
              ...l,
              sellingPlanId: plan.id,
              currentPrice: 1800,
              pricingPolicy: { basePrice: 2000, cycleDiscounts: [cycle1] },
            }
          : { ...l, pricingPolicy: null },
      )
      c.updatedAt += 1000
      c.revisionId += 1
    }
    await env.refreshMirror(domain, [id, untouched])
    await env.setNextBillingDates(domain, dates)
    // The app's rules for the plan: 30% off on the cycle billed now, 50% from the next.
    const put = await env.app.inject({
      method: 'PUT',
      url: `/app-admin/selling-plans/${plan.id}/custom-cycle-discounts?shop=${domain}&secret=s3cret-billing`,
      payload: {
        adjustmentType: 'PERCENTAGE',
        cycleDiscounts: [
          { cycle: 1, value: 10 },
          { cycle: billedNow, value: 30 },
          { cycle: billedNow + 1, value: 50 },
        ],
      },
    })
    expect(put.statusCode, put.body).toBe(200)
    // The second contract's line was sold with another plan: its own policy prices it.
    platformContract(untouched).lines[0]!.sellingPlanId = null
    platformContract(untouched).updatedAt += 1000
    platformContract(untouched).revisionId += 1
    await env.refreshMirror(domain, [untouched])
    const line = platformContract(id).lines[0]!
    const others = (cid: number) =>
      platformContract(cid)
        .lines.slice(1)
        .reduce((sum, l) => sum + l.currentPrice * l.quantity, 0) + platformContract(cid).deliveryPrice

    expect(await env.run(domain, T0)).toMatchObject({ attempted: 2, succeeded: 2 })

    const billed = async (cid: number) => {
      const { rows } = await env.pool.query<{ payload: { amount: string } }>(
        `select payload from contract_events where shop_id = $1 and contract_id = $2 and type = 'billed'`,
        [shop.id, cid],
      )
      return Number(rows[0]!.payload.amount)
    }
    // Charged at the rule of the cycle billed now: ¥2,000 − 30% = ¥1,400 a unit.
    expect(await billed(id)).toBe(1400 * line.quantity + others(id))
    // The next cycle carries the next rule: ¥1,000.
    expect(platformContract(id).lines[0]!.currentPrice).toBe(1000)
    // The line without the plan stays on its own 10% policy: ¥1,800.
    expect(await billed(untouched)).toBe(
      1800 * platformContract(untouched).lines[0]!.quantity + others(untouched),
    )
    expect(platformContract(untouched).lines[0]!.currentPrice).toBe(1800)
    // What the mirror keeps is the platform's policy, not the rules.
    const kept = await env.pool.query<{
      line_pricing: Array<{ pricingPolicy: { cycleDiscounts: unknown[] } | null }>
    }>('select line_pricing from billing_cycles where shop_id = $1 and contract_id = $2', [shop.id, id])
    expect(kept.rows[0]!.line_pricing[0]!.pricingPolicy!.cycleDiscounts).toEqual([
      { adjustmentType: 'PERCENTAGE', adjustmentValue: '10', afterCycle: 0 },
    ])
  })
})
