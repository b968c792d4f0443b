import { type BatchJob, ZBatchJob } from '@teiki/contract'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { onPostgres, useProcessWorld } from './support/app-process.ts'
import { arrangeSwap, batchResultMail, type SwapArrangement } from './support/batch.ts'
import { testDomain } from './support/fixtures.ts'

// Issue 17 on real processes: the server (apps/server/src/main.ts) runs a variant swap as its
// batch job and is killed with SIGKILL three times mid-way, then started again each time. The
// platform (an emulator this test process owns, so it outlives every kill) must show every
// contract that had the old variant carrying the new one, each changed by exactly one commit
// (its revision moved by one), no other contract changed, and the result mail decided once.
// With 16 contracts in flight, kills land between a commit on the platform and its row: the
// test checks that some rows were cut off 'applying', so the window was really crossed.

const SHOP = testDomain('kill-batch')
const SECRET = 'batch-sigkill-secret'
const MAIL_TO = 'batch-ops@example.jp'
const KILL_AT = [40, 110, 180]
let swap: SwapArrangement
let shopId: string

const env = useProcessWorld({ label: 'batchkill', shops: [{ domain: SHOP, contracts: 400 }] })
beforeAll(async () => {
  if (!onPostgres()) return
  swap = arrangeSwap(env.world.emulator, SHOP, 250)
  // No contract falls due while the test runs: the app's own billing schedule would bill it
  // (a commit that moves its revision too), and the test counts only the batch's commits.
  const farAhead = Date.now() + 365 * 86_400_000
  for (const c of env.world.emulator.store.shop(SHOP)!.contracts) {
    if (c.nextBillingDate !== null) c.nextBillingDate = farAhead
  }
  shopId = (await env.world.install(SHOP, SECRET)).id
}, 180_000)

const counts = async () => {
  const { rows } = await env.world.pool.query<{ changed: number; applying: number; status: string }>(
    `select b.changed, b.status,
       (select count(*)::int from batch_update_items i where i.shop_id = b.shop_id and i.batch_id = b.id
          and i.status = 'applying') as applying
     from batch_updates b where b.shop_id = $1`,
    [shopId],
  )
  return rows[0]!
}

describe.runIf(onPostgres())('batch swap across SIGKILLs', () => {
  it('swaps every contract exactly once and mails the result once', async () => {
    const platform = env.world.emulator.store.shop(SHOP)!
    const revisions = new Map(platform.contracts.map((c) => [c.id, c.revisionId]))
    const others = new Map(
      platform.contracts.filter((c) => !swap.contracts.includes(c.id)).map((c) => [c.id, JSON.stringify(c)]),
    )
    // Each call takes 40 ms: the batch runs for several seconds, so the kills land mid-way.
    env.world.emulator.faults.set({ latencyMs: 40 })
    let app = await env.start()
    const res = await fetch(`${app.url}/app-admin/batch-product-update?shop=${SHOP}&secret=${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        variantIdFrom: String(swap.from),
        variantIdTo: String(swap.to),
        notifyEmail: MAIL_TO,
      }),
    })
    expect(res.status).toBe(202)
    const job = ZBatchJob.parse(await res.json())
    expect(job.total).toBe(250)

    let cutOff = 0
    for (const at of KILL_AT) {
      await vi.waitFor(
        async () => {
          if ((await counts()).changed < at) throw new Error('not there yet')
        },
        { timeout: 90_000, interval: 5 },
      )
      await env.kill(app)
      const after = await counts()
      expect(after.status).toBe('running')
      cutOff += after.applying
      app = await env.start()
    }
    // Some kills fell between asking the platform and writing the outcome.
    expect(cutOff).toBeGreaterThan(0)

    let ended: BatchJob | undefined
    await vi.waitFor(
      async () => {
        const r = await fetch(`${app.url}/app-admin/batch-updates/${job.id}?shop=${SHOP}&secret=${SECRET}`, {
          headers: { accept: 'application/json' },
        })
        ended = ZBatchJob.parse(await r.json())
        if (ended.status !== 'done') throw new Error(`still ${ended.status}`)
      },
      { timeout: 120_000, interval: 100 },
    )
    expect(ended).toMatchObject({ total: 250, changed: 250, skipped: 0, failed: 0, pending: 0 })

    for (const id of swap.contracts) {
      const c = platform.contracts.find((x) => x.id === id)!
      const variants = c.lines.map((l) => l.variantId)
      expect(variants, `contract ${id}`).toContain(swap.to)
      expect(variants, `contract ${id}`).not.toContain(swap.from)
      // One commit per contract: a second swap would have moved the revision again.
      expect(c.revisionId - revisions.get(id)!, `contract ${id}`).toBe(1)
    }
    for (const [id, before] of others) {
      expect(JSON.stringify(platform.contracts.find((c) => c.id === id)), `contract ${id}`).toBe(before)
    }
    const mail = await batchResultMail(env.world.pool, shopId, job.id)
    expect(mail).toMatchObject({ to: MAIL_TO, status: 'stored' })
    expect(mail!.subject).toBe('【Teiki】一括更新を完了しました（変更250件・スキップ0件・失敗0件）')
    const { rows } = await env.world.pool.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where shop_id = $1 and dedupe_key like 'batch:%'`,
      [shopId],
    )
    expect(rows[0]!.n).toBe(1)
  }, 300_000)
})
