import { createHmac } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { toGid } from '../src/gid.ts'
import type { Emulator } from '../src/server.ts'
import { gql, SHOP, smallEmulator, webhookReceiver } from './support/harness.ts'
import * as m from './support/mutations.ts'

type Receiver = Awaited<ReturnType<typeof webhookReceiver>>

describe('webhooks', () => {
  const open: Array<Emulator | Receiver> = []
  afterEach(async () => {
    for (const x of open.splice(0)) await x.close()
  })
  const setUp = async (
    opts: { status?: (n: number) => number; seed?: number; retryBaseMs?: number } = {},
  ) => {
    const receiver = await webhookReceiver(opts.status)
    const emulator = await smallEmulator({
      apiSecret: 'secret',
      webhooks: { callbackUrl: receiver.url, maxAttempts: 4, retryBaseMs: opts.retryBaseMs ?? 5 },
      faults: { seed: opts.seed ?? 7 },
    })
    open.push(emulator, receiver)
    return { emulator, receiver }
  }
  const activeIds = (e: Emulator) =>
    e.store
      .shop(SHOP)!
      .contracts.filter((c) => c.status === 'ACTIVE')
      .map((c) => toGid('SubscriptionContract', c.id))

  it('subscribes through GraphQL (to the configured callback URL), lists and deletes', async () => {
    const { emulator, receiver } = await setUp()
    const created = await gql(emulator, m.webhookSubscriptionCreate, {
      topic: 'SUBSCRIPTION_CONTRACTS_PAUSE',
      input: { format: 'JSON' },
    })
    const sub = created.webhookSubscriptionCreate.webhookSubscription
    expect(sub).toMatchObject({
      topic: 'SUBSCRIPTION_CONTRACTS_PAUSE',
      format: 'JSON',
      callbackUrl: receiver.url,
      endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: receiver.url },
      apiVersion: { handle: '2025-04' },
    })
    const dup = await gql(emulator, m.webhookSubscriptionCreate, {
      topic: 'SUBSCRIPTION_CONTRACTS_PAUSE',
      input: {},
    })
    expect(dup.webhookSubscriptionCreate.userErrors[0].message).toMatch(/already been taken/)
    const listed = await gql(emulator, m.webhookSubscriptions, { topics: ['SUBSCRIPTION_CONTRACTS_PAUSE'] })
    expect(listed.webhookSubscriptions.nodes).toEqual([
      { id: sub.id, topic: 'SUBSCRIPTION_CONTRACTS_PAUSE', callbackUrl: receiver.url },
    ])

    await gql(emulator, m.contractPause, { id: activeIds(emulator)[0] })
    await emulator.idle()
    expect(receiver.topics()).toEqual(['subscription_contracts/pause'])
    const body = JSON.parse(receiver.received[0]!.body)
    expect(body).toMatchObject({
      admin_graphql_api_id: expect.stringMatching(/^gid:\/\/shopify\/SubscriptionContract\//),
      status: 'paused',
    })
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining([
        'id',
        'customer_id',
        'admin_graphql_api_customer_id',
        'updated_at',
        'revision_id',
        'billing_policy',
      ]),
    )

    const deleted = await gql(emulator, m.webhookSubscriptionDelete, { id: sub.id })
    expect(deleted.webhookSubscriptionDelete.deletedWebhookSubscriptionId).toBe(sub.id)
    const again = await gql(emulator, m.webhookSubscriptionDelete, { id: sub.id })
    expect(again.webhookSubscriptionDelete.userErrors).toHaveLength(1)
  })

  it('retries non-2xx answers with back-off, keeping the webhook id, then gives up at maxAttempts', async () => {
    const { emulator, receiver } = await setUp({ status: (n) => (n < 3 ? 503 : 200), retryBaseMs: 40 })
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', receiver.url)
    await gql(emulator, m.contractPause, { id: activeIds(emulator)[0] })
    await emulator.idle()
    expect(receiver.received).toHaveLength(3)
    expect(new Set(receiver.received.map((r) => r.headers['x-shopify-webhook-id'])).size).toBe(1)
    const gaps = [
      receiver.received[1]!.at - receiver.received[0]!.at,
      receiver.received[2]!.at - receiver.received[1]!.at,
    ]
    // 40 ms, then 80 ms: exponential back-off (a little slack for timer granularity).
    expect(gaps[0]).toBeGreaterThanOrEqual(35)
    expect(gaps[1]).toBeGreaterThanOrEqual(75)
    expect(emulator.webhooks.deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      lastStatus: 200,
    })
    for (const r of receiver.received) {
      expect(r.headers['x-shopify-hmac-sha256']).toBe(
        createHmac('sha256', 'secret').update(r.body).digest('base64'),
      )
    }
  })

  it('a receiver that always fails gets maxAttempts tries; a dead endpoint counts as failure too', async () => {
    const { emulator, receiver } = await setUp({ status: () => 500 })
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', receiver.url)
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', 'http://127.0.0.1:9/nothing')
    await gql(emulator, m.contractPause, { id: activeIds(emulator)[0] })
    await emulator.idle()
    expect(receiver.received).toHaveLength(4)
    expect(emulator.webhooks.deliveries.map((d) => [d.status, d.attempts])).toEqual([
      ['failed', 4],
      ['failed', 4],
    ])
    expect(emulator.webhooks.deliveries[1]!.lastStatus).toBeNull()
  })

  it('duplicate delivers an event twice with the same webhook id', async () => {
    const { emulator, receiver } = await setUp()
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', receiver.url)
    emulator.faults.set({ duplicate: 1 })
    await gql(emulator, m.contractPause, { id: activeIds(emulator)[0] })
    await emulator.idle()
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[0]!.headers['x-shopify-webhook-id']).toBe(
      receiver.received[1]!.headers['x-shopify-webhook-id'],
    )
  })

  it('drop loses events; reorder delivers a later event before an earlier one', async () => {
    const { emulator, receiver } = await setUp()
    emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', receiver.url)
    const [a, b, c] = activeIds(emulator) as [string, string, string]
    emulator.faults.set({ drop: 1 })
    await gql(emulator, m.contractPause, { id: a })
    await emulator.idle()
    expect(receiver.received).toHaveLength(0)
    expect(emulator.webhooks.deliveries[0]!.status).toBe('dropped')

    emulator.faults.set({ drop: 0, reorder: 1 })
    await gql(emulator, m.contractPause, { id: b })
    emulator.faults.set({ reorder: 0 })
    await gql(emulator, m.contractPause, { id: c })
    await emulator.idle()
    expect(receiver.received.map((r) => JSON.parse(r.body).admin_graphql_api_id)).toEqual([c, b])
  })

  it('the same seed gives the same fault decisions', async () => {
    const run = async () => {
      const { emulator, receiver } = await setUp({ seed: 42 })
      emulator.webhooks.subscribe(SHOP, 'subscription_contracts/update', receiver.url)
      emulator.faults.set({ drop: 0.5 })
      for (const id of activeIds(emulator).slice(0, 8)) await gql(emulator, m.contractPause, { id })
      await emulator.idle()
      return emulator.webhooks.deliveries.map((d) => d.status)
    }
    const first = await run()
    expect(first).toContain('dropped')
    expect(first).toContain('delivered')
    expect(await run()).toEqual(first)
  })

  it('app-level topics reach every shop; uninstall sends app/uninstalled and revokes the token', async () => {
    const receiver = await webhookReceiver()
    const emulator = await smallEmulator({
      webhooks: { callbackUrl: receiver.url, topics: ['app/uninstalled', 'selling_plan_groups/delete'] },
    })
    open.push(emulator, receiver)
    const { accessToken } = emulator.install(SHOP)
    emulator.uninstall(SHOP)
    await emulator.idle()
    expect(receiver.topics()).toEqual(['app/uninstalled'])
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ myshopify_domain: SHOP })
    expect(emulator.store.shopByToken(accessToken)).toBeUndefined()
    expect(emulator.install(SHOP).accessToken).not.toBe(accessToken)
  })

  it('an app that learns its port at start points the app-level topics there later', async () => {
    const receiver = await webhookReceiver()
    const emulator = await smallEmulator({ webhooks: { topics: ['app/uninstalled'] } })
    open.push(emulator, receiver)
    emulator.install(SHOP)
    emulator.uninstall(SHOP)
    await emulator.idle()
    expect(receiver.topics()).toEqual([])
    emulator.webhooks.setCallbackUrl(receiver.url)
    emulator.install(SHOP)
    emulator.uninstall(SHOP)
    await emulator.idle()
    expect(receiver.topics()).toEqual(['app/uninstalled'])
  })
})
