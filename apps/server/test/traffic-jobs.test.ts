import { ZPixelSettings } from '@teiki/contract'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Db } from '../src/db/pool.ts'
import { type Jobs, startJobs } from '../src/jobs/boss.ts'
import { startTrafficJobs, TRAFFIC_QUEUE } from '../src/jobs/traffic-jobs.ts'
import { appendContractEvent } from '../src/sync/contracts-repo.ts'
import { createShop, STAMP, seedContracts, useTestApp } from './support/fixtures.ts'

// The traffic attribution as a pg-boss job (jobs/traffic-jobs.ts), in place of the route's
// setInterval: a job attributes the tracked checkouts whose contract reached the mirror; the cron
// sends one a minute; a failed run is logged and left to the next minute, not retried.

const env = useTestApp()
let jobs: Jobs
let cronJobs: Jobs
const warned: string[] = []

beforeAll(async () => {
  jobs = await startJobs({ db: env.pool, schema: `traffic_jobs_${STAMP.replace(/\W/g, '_')}` })
  await startTrafficJobs({
    jobs,
    db: env.pool,
    cron: false,
    pollingIntervalSeconds: 0.5,
    log: { warn: (_obj, msg) => warned.push(msg) },
  })
  cronJobs = await startJobs({ db: env.pool, schema: `traffic_cron_${STAMP.replace(/\W/g, '_')}` })
  await startTrafficJobs({ jobs: cronJobs, db: env.pool, pollingIntervalSeconds: 600 })
})
afterAll(async () => {
  await jobs?.stop(5_000)
  await cronJobs?.stop(5_000)
})

let n = 0
const event = (name: string, clientId: string, more: Record<string, string>) => ({
  id: `tj-${process.pid}-${n++}`,
  name,
  timestamp: new Date().toISOString(),
  clientId,
  ...more,
})

/** A shop whose tracked checkout's contract reached the mirror, waiting for attribution. */
async function pendingAttribution() {
  const shop = await createShop(env.pool, { prefix: 'traffic-jobs' })
  const q = new URLSearchParams({ shop: shop.domain, secret: shop.secret })
  const settings = await env.app.inject({ url: `/app-admin/traffic/pixel-settings?${q}` })
  const key = ZPixelSettings.parse(settings.json()).accountID
  const ingest = async (events: unknown[]) => {
    const res = await env.app.inject({
      method: 'POST',
      url: `/pixel/events?${new URLSearchParams({ shop: shop.domain, key })}`,
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ events }),
    })
    expect(res.statusCode).toBe(200)
  }
  await ingest([event('page_viewed', 'b-1', { url: 'https://shop.jp/?utm_source=line&utm_medium=social' })])
  await ingest([event('checkout_completed', 'b-1', { orderId: 'gid://shopify/Order/990001' })])
  const customer = { id: '990002', firstName: '一郎', lastName: '鈴木', email: 'i@example.jp' }
  await seedContracts(env.pool, shop.id, [{ id: '990003', customer, nextBillingDate: null }])
  await env.pool.query(
    'update subscription_contracts set origin_order_id = 990001 where shop_id = $1 and id = 990003',
    [shop.id],
  )
  await appendContractEvent(env.pool, shop.id, 'webhook', {
    contractId: '990003',
    type: 'created',
    payload: {},
  })
  return shop
}

const attributions = async (shopId: string) =>
  (
    await env.pool.query<{ source: string }>('select source from contract_attributions where shop_id = $1', [
      shopId,
    ])
  ).rows

describe('traffic-attribution job', () => {
  it('attributes the pending checkouts when it runs', async () => {
    const shop = await pendingAttribution()
    // The ingest queue commits in groups: wait until the checkout is stored.
    await vi.waitFor(
      async () => {
        const { rows } = await env.pool.query(
          `select 1 from traffic_hits where shop_id = $1 and kind = 'checkout_completed'`,
          [shop.id],
        )
        expect(rows).toHaveLength(1)
      },
      { timeout: 10_000, interval: 50 },
    )
    expect(await attributions(shop.id)).toEqual([])
    await jobs.boss.send(TRAFFIC_QUEUE, {})
    await vi.waitFor(async () => expect(await attributions(shop.id)).toEqual([{ source: 'line' }]), {
      timeout: 20_000,
      interval: 100,
    })
  })

  it('is sent every minute by the cron unless the cron is off', async () => {
    const cron = await cronJobs.boss.getSchedules()
    expect(cron.map((s) => [s.name, s.cron])).toEqual([[TRAFFIC_QUEUE, '* * * * *']])
    expect(await jobs.boss.getSchedules()).toEqual([])
  })

  it('a failed run is logged and not retried (the next minute runs it again)', async () => {
    const failing = await startJobs({ db: env.pool, schema: `traffic_fail_${STAMP.replace(/\W/g, '_')}` })
    try {
      const down = { query: () => Promise.reject(new Error('database down')) } as unknown as Db
      const log = { warn: (_obj: object, msg: string) => warned.push(msg) }
      await startTrafficJobs({ jobs: failing, db: down, cron: false, pollingIntervalSeconds: 0.5, log })
      const id = (await failing.boss.send(TRAFFIC_QUEUE, {}))!
      await vi.waitFor(
        async () => expect((await failing.boss.getJobById(TRAFFIC_QUEUE, id))?.state).toBe('failed'),
        { timeout: 20_000, interval: 100 },
      )
      expect(warned).toContain('attribution sweep failed')
      expect((await failing.boss.getJobById(TRAFFIC_QUEUE, id))?.retryCount).toBe(0)
    } finally {
      await failing.stop(5_000)
    }
  })
})
