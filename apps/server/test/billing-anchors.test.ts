import { describe, expect, it } from 'vitest'
import { FAR, T0, useBillingEnv } from './support/billing.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 12 through the app: a billing run on contracts with several anchors sets the next
// billing date on the next anchor (ADR 0009), and the interval edit takes several anchors and
// refuses impossible ones with a 400 in Japanese. Expected dates are written out, not computed.

const DOMAIN = testDomain('bill-anchors')
const jst = (date: string) => new Date(`${date}T10:00:00+09:00`)

const env = useBillingEnv({ shops: [{ domain: DOMAIN, contracts: 30 }] })

const platformShop = () => env.emulator.store.shop(DOMAIN)!
const contract = (id: number) => platformShop().contracts.find((c) => c.id === id)!
type Anchor = { type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'; day: number; month: null; cutoffDay: null }
const anchor = (type: Anchor['type'], day: number): Anchor => ({ type, day, month: null, cutoffDay: null })

describe('a billing run on anchored contracts', () => {
  it('moves each contract to its next anchor: the other day of the month or week, N periods on', async () => {
    const plans: Array<{
      interval: 'WEEK' | 'MONTH'
      count: number
      anchors: Anchor[]
      due: string
      next: string
    }> = [
      // Monthly on the 10th and the 24th, billed on the 24th: the 10th of the next month.
      {
        interval: 'MONTH',
        count: 1,
        anchors: [anchor('MONTHDAY', 10), anchor('MONTHDAY', 24)],
        due: '2026-11-24',
        next: '2026-12-10',
      },
      // Weekly on Monday and Thursday, billed on Monday 23 November: that Thursday.
      {
        interval: 'WEEK',
        count: 1,
        anchors: [anchor('WEEKDAY', 1), anchor('WEEKDAY', 4)],
        due: '2026-11-23',
        next: '2026-11-26',
      },
      // Every 2 months on the 1st and the 24th, billed on 24 November: 1 January.
      {
        interval: 'MONTH',
        count: 2,
        anchors: [anchor('MONTHDAY', 24), anchor('MONTHDAY', 1)],
        due: '2026-11-24',
        next: '2027-01-01',
      },
    ]
    const ids = env.chargeable(DOMAIN, plans.length)
    const dates = new Map<number, Date>()
    for (const c of platformShop().contracts) if (c.status === 'ACTIVE') dates.set(c.id, FAR)
    plans.forEach((plan, i) => {
      const c = contract(ids[i]!)
      c.billingPolicy = {
        ...c.billingPolicy,
        interval: plan.interval,
        intervalCount: plan.count,
        anchors: plan.anchors,
      }
      c.deliveryPolicy = {
        ...c.deliveryPolicy,
        interval: plan.interval,
        intervalCount: plan.count,
        anchors: plan.anchors,
      }
      dates.set(c.id, jst(plan.due))
    })
    await env.setNextBillingDates(DOMAIN, dates)

    const summary = await env.run(DOMAIN, T0)
    expect(summary).toMatchObject({ due: plans.length, succeeded: plans.length, failed: 0 })
    expect(plans.map((_, i) => new Date(contract(ids[i]!).nextBillingDate!).toISOString())).toEqual(
      plans.map((plan) => jst(plan.next).toISOString()),
    )
  })
})

describe('PUT /interval-and-interval-count with several anchors', () => {
  const put = (body: Record<string, unknown>) =>
    env.app.inject({
      method: 'PUT',
      url: `/app-admin/interval-and-interval-count?shop=${DOMAIN}&secret=s3cret-billing`,
      payload: body,
    })
  const someContract = () => String(platformShop().contracts.find((c) => c.status === 'ACTIVE')!.id)

  it('sets monthly billing on the 10th and the 20th on the platform', async () => {
    const id = someContract()
    const anchors = [
      { type: 'MONTHDAY', day: 10 },
      { type: 'MONTHDAY', day: 20 },
    ]
    const res = await put({ contractId: id, interval: 'MONTH', intervalCount: 1, anchors })
    expect(res.statusCode).toBe(200)
    expect(contract(Number(id)).billingPolicy.anchors).toEqual([
      anchor('MONTHDAY', 10),
      anchor('MONTHDAY', 20),
    ])
  })

  it.each<[string, Record<string, unknown>, string]>([
    [
      '31 April',
      { interval: 'MONTH', anchors: [{ type: 'YEARDAY', month: 4, day: 31 }] },
      '4月31日は存在しない日付のため、アンカーに指定できません',
    ],
    [
      'WEEKDAY 8',
      {
        interval: 'WEEK',
        anchors: [
          { type: 'WEEKDAY', day: 1 },
          { type: 'WEEKDAY', day: 8 },
        ],
      },
      '曜日のアンカーは1（月曜）〜7（日曜）で指定してください',
    ],
    [
      'the 10th twice',
      {
        interval: 'MONTH',
        anchors: [
          { type: 'MONTHDAY', day: 10 },
          { type: 'MONTHDAY', day: 10 },
        ],
      },
      '同じアンカーが重複しています',
    ],
  ])(
    'refuses %s with a 400 in Japanese, and changes nothing on the platform',
    async (_label, body, message) => {
      const id = someContract()
      const before = env.emulator.callLog.length
      const res = await put({ contractId: id, intervalCount: 1, ...body })
      expect(res.statusCode).toBe(400)
      expect(res.json().error.code).toBe('INVALID_INPUT')
      expect(res.json().error.message).toContain(message)
      expect(env.emulator.callLog.slice(before).filter((c) => c.shop === DOMAIN)).toEqual([])
    },
  )
})
