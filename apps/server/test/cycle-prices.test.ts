import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ZSubscriptionDetail } from '@teiki/contract'
import { addCalendarDays, toZonedDate } from '@teiki/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appMetafields } from '../../../packages/shopify-emulator/src/storefront/product-page.ts'
import {
  blockPriceForCycle,
  blockRanges,
  renderPlanPrices,
} from '../../../packages/shopify-emulator/test/support/plan-block.ts'
import { sendUpcomingNotices } from '../src/features/mail-templates/upcoming-notice.ts'
import { createMailer, type Mailer } from '../src/mail/mailer.ts'
import { type BillingEnv, startBillingEnv } from './support/billing.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 22 on one contract of 回数割定期便 (1回目30%オフ、2〜3回目20%オフ、4回目以降10%オフ, the
// later cycles' discounts kept by the app, ADR 0013) bought at ¥3,240 with ¥550 delivery, its
// checkout (cycle 1) behind it: the product block, 契約詳細, 次回請求のお知らせ and the charge of
// cycles 2, 3 and 4 say one price per cycle. On the code before, the block read 毎回 ¥2,268 (the
// app's rules never reached it), 契約詳細 had no price per order, and the notice quoted the
// line's current price, ¥2,268 (the checkout's), for the second order, without delivery.

const domain = testDomain('cycle-prices')
const SECRET = 's3cret-billing'
const FAR = new Date('2027-09-01T01:00:00Z')
const BASE = 3240
const DELIVERY = 550
/** Order n's unit price: 30% off, then 20% off for orders 2–3, then 10% off. */
const PRICE: Record<number, number> = { 1: 2268, 2: 2592, 3: 2592, 4: 2916 }
/** Order 2 is billed on 2026-12-10 (10:00 JST); the engine moves the date on after each charge. */
const FIRST_DUE = new Date('2026-12-10T01:00:00Z')
/** The notice of a charge due at `due`: 09:30 Japan time, three Japan days before. */
const noticeBefore = (due: Date) =>
  new Date(`${addCalendarDays(toZonedDate(due, 'Asia/Tokyo'), -3)}T09:30:00+09:00`)

let env: BillingEnv
let mailer: Mailer
let dir: string
let contractId = 0
let planId = 0

const platformShop = () => env.emulator.store.shop(domain)!
const call = (method: 'GET' | 'PUT', path: string, payload?: object) =>
  env.app.inject({
    method,
    url: `/app-admin${path}?shop=${domain}&secret=${SECRET}`,
    ...(payload ? { payload } : {}),
  })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teiki-cycle-prices-'))
  env = await startBillingEnv({ shops: [{ domain, contracts: 20 }] })
  mailer = createMailer({ db: env.pool, outboxDir: dir, from: 'Teiki <no-reply@teiki.test>' })
  const shop = await env.shop(domain)
  ;[contractId] = env.chargeable(domain, 1) as [number]
  // The group's plan holds its cycle-1 price on the platform (30% off, what checkout charges).
  const group = platformShop().sellingPlanGroups[0]!
  const plan = group.sellingPlans[0]!
  planId = plan.id
  const thirtyOff = {
    __typename: 'SellingPlanFixedPricingPolicy' as const,
    adjustmentType: 'PERCENTAGE' as const,
    adjustmentValue: { __typename: 'SellingPlanPricingPolicyPercentageValue' as const, percentage: 30 },
  }
  plan.pricingPolicies = [thirtyOff]
  // The contract as checkout leaves it: one line at the first order's price, with the plan's policy.
  const c = platformShop().contracts.find((x) => x.id === contractId)!
  c.lines = [
    {
      ...c.lines[0]!,
      quantity: 1,
      sellingPlanId: plan.id,
      currentPrice: PRICE[1]!,
      pricingPolicy: { basePrice: BASE, cycleDiscounts: [thirtyOff] },
    },
  ]
  c.deliveryPrice = DELIVERY
  // Monthly without an end, so orders 2–4 are each a month apart.
  c.billingPolicy = { ...c.billingPolicy, interval: 'MONTH', intervalCount: 1, anchors: [], maxCycles: null }
  c.updatedAt += 1000
  c.revisionId += 1
  env.emulator.store.changed()
  expect((await call('PUT', `/selling-plan-groups/${group.id}/sync`)).statusCode).toBe(200)
  await env.refreshMirror(domain, [contractId])
  // One order so far (the checkout): the merchant's count, no mirrored order after it.
  await env.pool.query(
    `update subscription_contracts set order_count_set = 1, order_count_set_at = now() - interval '1 minute'
     where shop_id = $1 and id = $2`,
    [shop.id, contractId],
  )
  const dates = new Map<number, Date>()
  for (const other of platformShop().contracts) if (other.status === 'ACTIVE') dates.set(other.id, FAR)
  dates.set(contractId, FIRST_DUE)
  await env.setNextBillingDates(domain, dates)
}, 120_000)

afterAll(async () => {
  mailer?.close()
  await env?.close()
  await rm(dir, { recursive: true, force: true })
})

/** The block's ranges on the platform's store for the contract's product, with what the app published. */
async function blockOnStore() {
  const shop = platformShop()
  const line = shop.contracts.find((x) => x.id === contractId)!.lines[0]!
  const variant = shop.variants.find((v) => v.id === line.variantId)!
  variant.price = BASE
  const product = shop.products.find((p) => p.id === variant.productId)!
  const planPrices = appMetafields(shop).teiki?.plan_prices?.value
  const text = (await renderPlanPrices(shop, product, { variantId: variant.id, planPrices })).get(planId)
  return blockRanges(text ?? '')
}

/** The last 次回請求のお知らせ of the contract in the outbox: its amount and line. */
async function noticeOf(cycle: number) {
  const { rows } = await env.pool.query<{ body: string }>(
    `select body from mail_outbox where dedupe_key like $1 order by id desc limit 1`,
    [`upcoming:${contractId}:%`],
  )
  const body = rows[0]?.body ?? ''
  const amount = /ご請求予定金額: ¥([\d,]+)/.exec(body)?.[1]
  const unit = /× 1　¥([\d,]+)/.exec(body)?.[1]
  expect(amount, `notice of order ${cycle}:\n${body}`).toBeDefined()
  return { amount: Number(amount!.replaceAll(',', '')), unit: Number(unit?.replaceAll(',', '')) }
}

async function chargedFor(cycle: number): Promise<number> {
  const shop = await env.shop(domain)
  const { rows } = await env.pool.query<{ payload: { amount: string; cycle: number } }>(
    `select payload from contract_events where shop_id = $1 and contract_id = $2 and type = 'billed'
     order by id`,
    [shop.id, contractId],
  )
  const billed = rows.find((r) => Number(r.payload.cycle) === cycle)
  expect(billed, `billed event of order ${cycle}`).toBeDefined()
  return Number(billed!.payload.amount)
}

describe('回数割定期便: one price per order on the block, 契約詳細, the notice and the charge', () => {
  it('saving the rules publishes teiki.plan_prices; the block reads 1回目 ¥2,268 / 2〜3回目 ¥2,592 / 4回目以降 ¥2,916', async () => {
    const put = await call('PUT', `/selling-plans/${planId}/custom-cycle-discounts`, {
      adjustmentType: 'PERCENTAGE',
      cycleDiscounts: [
        { cycle: 1, value: 30 },
        { cycle: 2, value: 20 },
        { cycle: 4, value: 10 },
      ],
    })
    expect(put.statusCode, put.body).toBe(200)
    expect(appMetafields(platformShop()).teiki?.plan_prices?.value).toEqual({
      unit: 100,
      plans: {
        [String(planId)]: [
          { from: 1, to: 1, kind: 'percentage', keep: 7, per: 10 },
          { from: 2, to: 3, kind: 'percentage', keep: 4, per: 5 },
          { from: 4, to: 0, kind: 'percentage', keep: 9, per: 10 },
        ],
      },
    })
    expect((await blockOnStore()).map((r) => r.label)).toEqual([
      '1回目 ¥2,268',
      '2〜3回目 ¥2,592',
      '4回目以降 ¥2,916',
    ])
  })

  it('契約詳細 gives the next order (2) and the ones after, by order number', async () => {
    const res = await call('GET', `/subscriptions/${contractId}`)
    expect(res.statusCode, res.body).toBe(200)
    const detail = ZSubscriptionDetail.parse(res.json())
    expect(detail.nextCycle).toBe(2)
    expect(detail.lines[0]!.cyclePrices).toEqual([
      { from: 2, to: 3, price: { amount: '2592', currencyCode: 'JPY' } },
      { from: 4, to: null, price: { amount: '2916', currencyCode: 'JPY' } },
    ])
  })

  it('orders 2–4: the notice’s amount, the charge and the block agree (delivery included)', async () => {
    const shop = await env.shop(domain)
    const notices = { db: env.pool, mailer, quote: env.app.billingEngine.quoteNextCycle }
    const block = await blockOnStore()
    for (const cycle of [2, 3, 4]) {
      const { rows } = await env.pool.query<{ next_billing_date: Date }>(
        'select next_billing_date from subscription_contracts where shop_id = $1 and id = $2',
        [shop.id, contractId],
      )
      const due = rows[0]!.next_billing_date
      expect(await sendUpcomingNotices(notices, shop, noticeBefore(due))).toBe(1)
      const notice = await noticeOf(cycle)
      expect(notice).toEqual({ amount: PRICE[cycle]! + DELIVERY, unit: PRICE[cycle] })
      expect(await env.run(domain, new Date(due.getTime() + 3_600_000))).toMatchObject({
        succeeded: 1,
      })
      expect(await chargedFor(cycle)).toBe(notice.amount)
      expect(blockPriceForCycle(block, cycle)).toBe(PRICE[cycle])
      const detail = ZSubscriptionDetail.parse((await call('GET', `/subscriptions/${contractId}`)).json())
      expect(detail.nextCycle).toBe(cycle + 1)
      expect(detail.lines[0]!.cyclePrices[0]!.price.amount).toBe(String(PRICE[Math.min(cycle + 1, 4)]))
    }
  })
})
