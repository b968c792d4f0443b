import {
  type BatchJob,
  ZBatchItems,
  ZBatchJob,
  ZBatchPreview,
  ZBulkQueryResponse,
  ZErrorResponse,
} from '@teiki/contract'
import { BATCH_REASONS, cycleUnitPrice, toZonedDate } from '@teiki/domain'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { planProductUpdate, startBatch } from '../src/features/batch/service.ts'
import { sweepBatches } from '../src/jobs/batch-jobs.ts'
import { contractOrderCount } from '../src/sync/order-count.ts'
import {
  arrangeSwap,
  type BatchWorld,
  batchResultMail,
  type SwapArrangement,
  startBatchWorld,
} from './support/batch.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 17 on the real HTTP app, its job queue and the emulator: each batch path's success,
// bad input (400 in Japanese, nothing started), isolation between shops, a cancelled batch and
// a batch where the platform answers userErrors for some contracts. Batches of one shop run one
// at a time, so the tests run in order and each waits for its batch to end.

const A = testDomain('batch-a')
const B = testDomain('batch-b')
const SECRET = 'batch-login-secret'
const MAIL_TO = 'ops@example.jp'

let world: BatchWorld
let swapA: SwapArrangement
let swapB: SwapArrangement

beforeAll(async () => {
  world = await startBatchWorld({
    shops: [
      { domain: A, contracts: 60 },
      { domain: B, contracts: 20 },
    ],
    secret: SECRET,
    schema: 'pgboss_batch_test',
    arrange: (emulator) => {
      swapA = arrangeSwap(emulator, A, 8)
      swapB = arrangeSwap(emulator, B, 3)
    },
  })
}, 120_000)
afterAll(() => world?.close())
beforeEach(() => world.emulator.faults.reset())

function call(method: 'GET' | 'POST', path: string, body?: unknown, domain = A) {
  const sep = path.includes('?') ? '&' : '?'
  return world.app.inject({
    method,
    url: `/app-admin${path}${sep}shop=${domain}&secret=${SECRET}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

const platformShop = (domain = A) => world.emulator.store.shop(domain)!
const platformContract = (id: number, domain = A) => platformShop(domain).contracts.find((c) => c.id === id)!
const variantsOn = (id: number, domain = A) => platformContract(id, domain).lines.map((l) => l.variantId)
const snapshot = (domain = A) =>
  new Map(
    platformShop(domain).contracts.map((c) => [c.id, JSON.stringify([c.lines, c.nextBillingDate, c.status])]),
  )

async function batchCount(domain = A) {
  const { rows } = await world.pool.query<{ n: number }>(
    'select count(*)::int as n from batch_updates where shop_id = $1',
    [world.shops[domain]!.id],
  )
  return rows[0]!.n
}

async function untilEnded(id: string, domain = A): Promise<BatchJob> {
  let job: BatchJob | undefined
  await vi.waitFor(
    async () => {
      job = ZBatchJob.parse((await call('GET', `/batch-updates/${id}`, undefined, domain)).json())
      if (!['done', 'cancelled', 'failed'].includes(job.status)) throw new Error(`still ${job.status}`)
    },
    { timeout: 60_000, interval: 100 },
  )
  return job!
}

async function start(path: string, body: unknown, domain = A): Promise<BatchJob> {
  const res = await call('POST', path, body, domain)
  expect(res.statusCode, res.body).toBe(202)
  return ZBatchJob.parse(res.json())
}

function expectJapanese400(res: { statusCode: number; json(): unknown }, text?: string) {
  expect(res.statusCode).toBe(400)
  const body = ZErrorResponse.parse(res.json())
  expect(body.error.code).toBe('INVALID_INPUT')
  expect(body.error.message).toMatch(/[ぁ-んァ-ン一-龥]/)
  if (text) expect(body.error.message).toContain(text)
}

describe('POST /batch-product-update (variant swap)', () => {
  it('previews the count and the contracts page by page', async () => {
    const q = `variantIdFrom=${swapA.from}&variantIdTo=${swapA.to}`
    const first = ZBatchPreview.parse(
      (await call('GET', `/batch-product-update/preview?${q}&limit=5`)).json(),
    )
    expect(first.total).toBe(8)
    expect(first.contracts).toHaveLength(5)
    expect(first.summary).toContain('に入れ替え')
    const rest = ZBatchPreview.parse(
      (await call('GET', `/batch-product-update/preview?${q}&limit=5&offset=5`)).json(),
    )
    const ids = [...first.contracts, ...rest.contracts].map((c) => Number(c.contractId))
    expect(ids.sort()).toEqual([...swapA.contracts].sort())
  })

  it('refuses bad input with a Japanese 400 and starts nothing', async () => {
    const before = await batchCount()
    for (const body of [
      { variantIdFrom: 'abc', variantIdTo: String(swapA.to) },
      { variantIdFrom: String(swapA.from), variantIdTo: String(swapA.from) },
      { variantIdFrom: String(swapA.from) },
      { variantIdFrom: String(swapA.from), variantIdTo: String(swapA.to), email: 'x\u0000@example.jp' },
      { variantIdFrom: String(swapA.from), variantIdTo: String(swapA.to), notifyEmail: 'not-a-mail' },
      { variantIdFrom: String(swapA.from), variantIdTo: String(swapA.to), extra: 1 },
      { variantIdFrom: '99999999999999999999', variantIdTo: String(swapA.to) },
    ]) {
      expectJapanese400(await call('POST', '/batch-product-update', body))
    }
    // A customer with no such contract: nothing to change.
    expectJapanese400(
      await call('POST', '/batch-product-update', {
        variantIdFrom: String(swapA.from),
        variantIdTo: String(swapA.to),
        email: 'nobody@example.jp',
      }),
      '対象となる契約がありません',
    )
    expect(await batchCount()).toBe(before)
  })

  it('swaps the variant on every contract that has it, once, and mails the result', async () => {
    const before = snapshot()
    const platformPrice = platformShop().variants.find((v) => v.id === swapA.to)!.price
    // One contract's prices were set by hand: its price stays.
    const manual = swapA.contracts[0]!
    const manualPrice = platformContract(manual).lines[0]!.currentPrice
    await world.pool.query(
      'update subscription_contracts set price_manually_changed_at = now() where shop_id = $1 and id = $2',
      [world.shops[A]!.id, manual],
    )
    const job = await start('/batch-product-update', {
      variantIdFrom: String(swapA.from),
      variantIdTo: `gid://shopify/ProductVariant/${swapA.to}`,
      notifyEmail: MAIL_TO,
    })
    expect(job).toMatchObject({ status: 'queued', total: 8, executedAt: null })
    const ended = await untilEnded(job.id)
    expect(ended).toMatchObject({
      status: 'done',
      total: 8,
      changed: 8,
      skipped: 0,
      failed: 0,
      pending: 0,
      percent: 100,
    })
    expect(ended.executedAt).not.toBeNull()
    expect(Date.parse(ended.updatedAt)).toBeGreaterThanOrEqual(Date.parse(ended.executedAt!))

    for (const id of swapA.contracts) {
      expect(variantsOn(id)).toContain(swapA.to)
      expect(variantsOn(id)).not.toContain(swapA.from)
    }
    expect(platformContract(manual).lines[0]!.currentPrice).toBe(manualPrice)
    // A plan-priced line: the plan's discount follows the new variant (base = its price), and the
    // line carries the policy's price for the coming cycle; without a policy, the variant's price.
    const swapped = swapA.contracts[1]!
    const line = platformContract(swapped).lines[0]!
    if (!line.pricingPolicy) expect(line.currentPrice).toBe(platformPrice)
    else {
      expect(line.pricingPolicy.basePrice).toBe(platformPrice)
      const policy = {
        basePrice: String(platformPrice),
        cycleDiscounts: line.pricingPolicy.cycleDiscounts.map((d) => ({
          adjustmentType: d.adjustmentType,
          adjustmentValue:
            d.adjustmentValue.__typename === 'MoneyV2'
              ? d.adjustmentValue.amount
              : String(d.adjustmentValue.percentage),
          afterCycle: d.afterCycle ?? 0,
        })),
      }
      const cycle = (await contractOrderCount(world.pool, world.shops[A]!.id, String(swapped))) + 1
      expect(line.currentPrice).toBe(Number(cycleUnitPrice(policy, cycle, 'JPY')))
    }
    // No other contract touched.
    const after = snapshot()
    for (const [id, state] of before) if (!swapA.contracts.includes(id)) expect(after.get(id)).toBe(state)
    // The mirror and the history follow, one event per contract.
    const { rows } = await world.pool.query<{ contract_id: string; n: number }>(
      `select contract_id::text, count(*)::int as n from contract_events
       where shop_id = $1 and type = 'line_variant_swapped' and payload->>'batchId' = $2 group by contract_id`,
      [world.shops[A]!.id, job.id],
    )
    expect(rows.map((r) => Number(r.contract_id)).sort()).toEqual([...swapA.contracts].sort())
    expect(rows.every((r) => r.n === 1)).toBe(true)
    const mirrored = await world.pool.query<{ n: number }>(
      'select count(distinct contract_id)::int as n from subscription_lines where shop_id = $1 and variant_id = $2',
      [world.shops[A]!.id, swapA.to],
    )
    expect(mirrored.rows[0]!.n).toBe(8)

    const mail = await batchResultMail(world.pool, world.shops[A]!.id, job.id)
    expect(mail).toMatchObject({ to: MAIL_TO, status: 'stored' })
    expect(mail!.subject).toBe('【Teiki】一括更新を完了しました（変更8件・スキップ0件・失敗0件）')
    expect(mail!.text).toContain('変更した契約: 8件')

    const report = ZBatchItems.parse(
      (await call('GET', `/batch-updates/${job.id}/items?status=changed`)).json(),
    )
    expect(report.total).toBe(8)
  })

  it('reports userErrors per contract as failed, in Japanese, and changes the others', async () => {
    // Swap back; the platform refuses two commits.
    world.emulator.faults.failMutation(
      'subscriptionDraftCommit',
      { code: 'INVALID', message: 'Contract is invalid' },
      2,
    )
    const job = await start('/batch-product-update', {
      variantIdFrom: String(swapA.to),
      variantIdTo: String(swapA.from),
      notifyEmail: MAIL_TO,
    })
    const ended = await untilEnded(job.id)
    expect(ended).toMatchObject({ status: 'done', changed: 6, failed: 2, skipped: 0 })
    const failed = ZBatchItems.parse(
      (await call('GET', `/batch-updates/${job.id}/items?status=failed`)).json(),
    )
    expect(failed.items).toHaveLength(2)
    for (const item of failed.items) {
      expect(item.reason).toContain('Shopify が商品の一括入れ替えを受け付けませんでした')
      expect(item.reason).toContain('詳細: Contract is invalid')
      // Left as it was on the platform.
      expect(variantsOn(Number(item.contractId))).toContain(swapA.to)
    }
    const mail = await batchResultMail(world.pool, world.shops[A]!.id, job.id)
    expect(mail!.text).toContain('失敗: Shopify が商品の一括入れ替えを受け付けませんでした')
    // Put the two back for the next tests (the platform no longer refuses).
    const retry = await start('/batch-product-update', {
      variantIdFrom: String(swapA.to),
      variantIdTo: String(swapA.from),
    })
    expect(await untilEnded(retry.id)).toMatchObject({ status: 'done', changed: 2 })
  })

  it('skips contracts when the new variant is out of stock or not sold with their plan', async () => {
    const variant = platformShop().variants.find((v) => v.id === swapA.to)!
    variant.inventoryQuantity = 0
    try {
      const job = await start('/batch-product-update', {
        variantIdFrom: String(swapA.from),
        variantIdTo: String(swapA.to),
      })
      const ended = await untilEnded(job.id)
      expect(ended).toMatchObject({ status: 'done', changed: 0, skipped: 8 })
      const items = ZBatchItems.parse((await call('GET', `/batch-updates/${job.id}/items`)).json())
      expect(new Set(items.items.map((i) => i.reason))).toEqual(new Set([BATCH_REASONS.outOfStock]))
    } finally {
      variant.inventoryQuantity = null
    }
    // One contract's line moved to a plan of a group that does not sell the new variant.
    const shop = platformShop()
    // A generated shop may sell the product in every group: then a plan id no group holds.
    const foreign = shop.sellingPlanGroups.find((g) => !g.productIds.includes(variant.productId))
    const foreignPlanId = foreign?.sellingPlans[0]?.id ?? 9_999_999_999
    const target = platformContract(swapA.contracts[2]!)
    const planBefore = target.lines[0]!.sellingPlanId
    target.lines[0] = { ...target.lines[0]!, sellingPlanId: foreignPlanId }
    try {
      const job = await start('/batch-product-update', {
        variantIdFrom: String(swapA.from),
        variantIdTo: String(swapA.to),
      })
      expect(await untilEnded(job.id)).toMatchObject({ changed: 7, skipped: 1 })
      const skipped = ZBatchItems.parse(
        (await call('GET', `/batch-updates/${job.id}/items?status=skipped`)).json(),
      )
      expect(skipped.items).toMatchObject([
        { contractId: String(target.id), reason: BATCH_REASONS.notInPlan },
      ])
      expect(variantsOn(target.id)).toContain(swapA.from)
    } finally {
      target.lines[0] = { ...target.lines[0]!, sellingPlanId: planBefore }
    }
    const back = await start('/batch-product-update', {
      variantIdFrom: String(swapA.to),
      variantIdTo: String(swapA.from),
    })
    expect(await untilEnded(back.id)).toMatchObject({ changed: 7 })
  })

  it('cancels a running batch: what was done stays done and is reported, the rest untouched', async () => {
    world.emulator.faults.set({ latencyMs: 150 })
    const job = await start('/batch-product-update', {
      variantIdFrom: String(swapA.from),
      variantIdTo: String(swapA.to),
      notifyEmail: MAIL_TO,
    })
    await vi.waitFor(
      async () => {
        const now = ZBatchJob.parse((await call('GET', `/batch-updates/${job.id}`)).json())
        if (now.changed < 1) throw new Error('nothing changed yet')
      },
      { timeout: 30_000, interval: 20 },
    )
    const cancelled = await call('POST', `/batch-updates/${job.id}/cancel`)
    expect(cancelled.statusCode).toBe(200)
    expect(ZBatchJob.parse(cancelled.json()).cancelRequested).toBe(true)
    const ended = await untilEnded(job.id)
    expect(ended.status).toBe('cancelled')
    expect(ended.changed).toBeGreaterThan(0)
    expect(ended.pending).toBeGreaterThan(0)
    expect(ended.changed + ended.pending).toBe(8)
    const swapped = swapA.contracts.filter((id) => variantsOn(id).includes(swapA.to))
    expect(swapped).toHaveLength(ended.changed)
    const mail = await batchResultMail(world.pool, world.shops[A]!.id, job.id)
    expect(mail!.subject).toContain('一括更新を中止しました')
    expect(mail!.text).toContain(`未処理（変更していません）: ${ended.pending}件`)
    // Again: 409, it has ended.
    expect((await call('POST', `/batch-updates/${job.id}/cancel`)).statusCode).toBe(409)
    world.emulator.faults.reset()
    // Finish the swap for the tests below.
    const rest = await start('/batch-product-update', {
      variantIdFrom: String(swapA.from),
      variantIdTo: String(swapA.to),
    })
    expect(await untilEnded(rest.id)).toMatchObject({ changed: ended.pending })
  })
})

describe('POST /batch-product-delete (variant removal)', () => {
  it('removes the variant where the contract keeps another line, skips the last line', async () => {
    const preview = ZBatchPreview.parse(
      (await call('GET', `/batch-product-delete/preview?variantId=${swapA.to}`)).json(),
    )
    expect(preview.total).toBe(8)
    const single = swapA.contracts.filter((id) => platformContract(id).lines.length === 1)
    const job = await start('/batch-product-delete', { variantId: String(swapA.to), notifyEmail: MAIL_TO })
    const ended = await untilEnded(job.id)
    expect(ended).toMatchObject({ status: 'done', changed: 8 - single.length, skipped: single.length })
    for (const id of swapA.contracts) {
      if (single.includes(id)) expect(variantsOn(id)).toEqual([swapA.to])
      else expect(variantsOn(id)).not.toContain(swapA.to)
    }
    const mail = await batchResultMail(world.pool, world.shops[A]!.id, job.id)
    expect(mail!.subject).toContain(`変更${8 - single.length}件`)
  })

  it('refuses bad input in Japanese', async () => {
    expectJapanese400(await call('POST', '/batch-product-delete', { variantId: '0' }))
    expectJapanese400(await call('POST', '/batch-product-delete', {}))
    expect((await call('POST', '/batch-product-delete', { variantId: '123456789' })).statusCode).toBe(404)
  })
})

describe('POST /batch-next-billing-date-update', () => {
  it('moves every live contract billed on the from-day to the to-day, in Japan time', async () => {
    const live = platformShop().contracts.filter((c) => c.status === 'ACTIVE' && c.nextBillingDate)
    const day = toZonedDate(new Date(live[0]!.nextBillingDate!), 'Asia/Tokyo')
    const onDay = platformShop()
      .contracts.filter(
        (c) =>
          c.status !== 'CANCELLED' &&
          c.status !== 'EXPIRED' &&
          c.nextBillingDate &&
          toZonedDate(new Date(c.nextBillingDate), 'Asia/Tokyo') === day,
      )
      .map((c) => c.id)
    const to = '2027-03-03'
    const preview = ZBatchPreview.parse(
      (
        await call(
          'GET',
          `/batch-next-billing-date-update/preview?nextBillingDateFrom=${day}&nextBillingDateTo=${to}`,
        )
      ).json(),
    )
    expect(preview.total).toBe(onDay.length)
    const before = snapshot()
    const job = await start('/batch-next-billing-date-update', {
      nextBillingDateFrom: day,
      nextBillingDateTo: to,
    })
    expect(await untilEnded(job.id)).toMatchObject({ status: 'done', changed: onDay.length })
    for (const id of onDay) {
      expect(toZonedDate(new Date(platformContract(id).nextBillingDate!), 'Asia/Tokyo')).toBe(to)
    }
    const after = snapshot()
    for (const [id, state] of before) if (!onDay.includes(id)) expect(after.get(id)).toBe(state)
  })

  it('refuses a past to-day, equal days and impossible dates in Japanese', async () => {
    const before = await batchCount()
    expectJapanese400(
      await call('POST', '/batch-next-billing-date-update', {
        nextBillingDateFrom: '2026-12-01',
        nextBillingDateTo: '2020-01-01',
      }),
      '今日以降',
    )
    expectJapanese400(
      await call('POST', '/batch-next-billing-date-update', {
        nextBillingDateFrom: '2026-12-01',
        nextBillingDateTo: '2026-12-01',
      }),
    )
    expectJapanese400(
      await call('POST', '/batch-next-billing-date-update', {
        nextBillingDateFrom: '2026-02-30',
        nextBillingDateTo: '2027-01-01',
      }),
    )
    expect(await batchCount()).toBe(before)
  })
})

describe('isolation between shops, job status, bulk query', () => {
  it("never shows or touches another shop's batches and contracts", async () => {
    const bBefore = snapshot(B)
    // A's session cannot target B's variant (not in A's mirror) …
    expect(
      (
        await call('POST', '/batch-product-update', {
          variantIdFrom: String(swapB.from),
          variantIdTo: String(swapB.to),
        })
      ).statusCode,
    ).toBe(404)
    // … and B's batch runs on B only.
    const job = await start(
      '/batch-product-update',
      { variantIdFrom: String(swapB.from), variantIdTo: String(swapB.to) },
      B,
    )
    expect(await untilEnded(job.id, B)).toMatchObject({ changed: 3 })
    // A cannot read, report or cancel B's batch.
    expect((await call('GET', `/batch-updates/${job.id}`)).statusCode).toBe(404)
    expect((await call('GET', `/batch-updates/${job.id}/items`)).statusCode).toBe(404)
    expect((await call('POST', `/batch-updates/${job.id}/cancel`)).statusCode).toBe(404)
    const listA = (await call('GET', '/batch-updates')).json() as { batches: BatchJob[] }
    expect(listA.batches.some((b) => b.id === job.id)).toBe(false)
    const bAfter = snapshot(B)
    for (const [id, state] of bBefore) if (!swapB.contracts.includes(id)) expect(bAfter.get(id)).toBe(state)
  })

  it('404s a malformed or unknown batch id', async () => {
    expect((await call('GET', '/batch-updates/not-a-uuid')).statusCode).toBe(404)
    expect((await call('GET', '/batch-updates/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404)
  })

  it("GET /bulk-query answers the shop's latest bulk operation", async () => {
    const res = await call('GET', '/bulk-query')
    expect(res.statusCode).toBe(200)
    const body = ZBulkQueryResponse.parse(res.json())
    if (body.bulkOperation) expect(body.bulkOperation.statusLabel).toMatch(/[ぁ-んァ-ン一-龥]/)
    const before = world.emulator.callLog.length
    await world.emulator.graphql(A, {
      query:
        'mutation { bulkOperationRunQuery(query: "{ products { edges { node { id } } } }") { bulkOperation { id } userErrors { message } } }',
    })
    await world.emulator.idle(10_000)
    const after = ZBulkQueryResponse.parse((await call('GET', '/bulk-query')).json())
    expect(after.bulkOperation).toMatchObject({ status: 'COMPLETED', statusLabel: '完了' })
    expect(world.emulator.callLog.slice(before).some((c) => c.operationName === 'CurrentBulkOperation')).toBe(
      true,
    )
  })
})

describe('resume after a dead worker (another host, heartbeat gone quiet)', () => {
  it('a swept batch goes on from its rows and never re-applies a change already on the platform', async () => {
    const shop = world.shops[B]!
    // Swap B's contracts back (to → from); recorded without a job, as if its worker died.
    const plan = await planProductUpdate(world.pool, shop, {
      variantIdFrom: String(swapB.to),
      variantIdTo: String(swapB.from),
    })
    const batch = await startBatch(world.pool, shop, plan, MAIL_TO)
    const [done, ...rest] = [...swapB.contracts].sort((x, y) => x - y)
    // The dead worker had committed the first contract's swap and died before its row.
    const committed = platformContract(done!, B)
    committed.lines = committed.lines.map((l) =>
      l.variantId === swapB.to ? { ...l, variantId: swapB.from } : l,
    )
    committed.revisionId += 1
    const revisions = new Map([...swapB.contracts].map((id) => [id, platformContract(id, B).revisionId]))
    await world.pool.query(
      `update batch_updates set status = 'running', owner = 'elsewhere:1', heartbeat_at = now() - interval '3 minutes',
         executed_at = now() - interval '4 minutes' where shop_id = $1 and id = $2`,
      [shop.id, batch.id],
    )
    await world.pool.query(
      `update batch_update_items set status = 'applying' where shop_id = $1 and batch_id = $2 and contract_id = $3`,
      [shop.id, batch.id, done],
    )
    expect(await sweepBatches(world.jobs, { db: world.pool }, false)).toBeGreaterThanOrEqual(1)
    const ended = await untilEnded(batch.id, B)
    expect(ended).toMatchObject({ status: 'done', changed: 3, skipped: 0, failed: 0 })
    // The committed one was judged, not swapped again; the others were swapped once each.
    expect(platformContract(done!, B).revisionId).toBe(revisions.get(done!))
    for (const id of rest) expect(platformContract(id, B).revisionId).toBe(revisions.get(id)! + 1)
    for (const id of swapB.contracts) expect(variantsOn(id, B)).toContain(swapB.from)
    const mail = await batchResultMail(world.pool, shop.id, batch.id)
    expect(mail!.subject).toContain('変更3件')
  })
})
