import { describe, expect, it } from 'vitest'
import { withTransaction } from '../src/db/pool.ts'
import { refreshContract } from '../src/features/webhooks/contract-topics.ts'
import { toGid } from '../src/platform/gid.ts'
import { fetchSubscriptionContract } from '../src/platform/operations/subscription-contract.ts'
import { appendContractEvents, upsertContracts } from '../src/sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../src/sync/records.ts'
import { useMainAndOther } from './support/emulated-app.ts'
import { testDomain } from './support/fixtures.ts'

const DOMAIN = testDomain('actions')
const OTHER = testDomain('actions-other')
const SECRET = 's3cret-actions'

const env = useMainAndOther('actions', { secret: SECRET, contracts: [30, 5], sync: false })

const platformContract = (domain: string, id: number) =>
  env.emulator.store.shop(domain)!.contracts.find((c) => c.id === id)!

/** Puts the platform's current contract in the mirror, as the full sync would. */
async function mirror(domain: string, contractId: number): Promise<void> {
  const contract = await fetchSubscriptionContract(
    env.clients[domain]!,
    toGid('SubscriptionContract', contractId),
  )
  const changes = await upsertContracts(
    env.pool,
    env.shopIds[domain]!,
    [contractRecord(contract!)],
    lineRecords(contract!),
  )
  await appendContractEvents(env.pool, env.shopIds[domain]!, 'sync', changes)
}

const used = new Set<number>()
/** An ACTIVE contract no earlier test used, mirrored; with its customer id. */
async function freshActive(domain = DOMAIN): Promise<{ contractId: string; customerId: string }> {
  const c = env.emulator.store.shop(domain)!.contracts.find((c) => c.status === 'ACTIVE' && !used.has(c.id))!
  used.add(c.id)
  await mirror(domain, c.id)
  return { contractId: String(c.id), customerId: String(c.customerId) }
}

async function setPlatformStatus(mutation: string, contractId: string): Promise<void> {
  const res = await env.emulator.graphql(DOMAIN, {
    query: `mutation { ${mutation}(subscriptionContractId: "${toGid('SubscriptionContract', contractId)}") {
      contract { id status } userErrors { field message } } }`,
  })
  expect(res.errors).toBeUndefined()
}

async function mirrorRow(contractId: string, domain = DOMAIN) {
  const { rows } = await env.pool.query<{ status: string; updated_at: Date }>(
    'select status, updated_at from subscription_contracts where shop_id = $1 and id = $2',
    [env.shopIds[domain], contractId],
  )
  return rows[0]
}

async function statusEvents(contractId: string) {
  const { rows } = await env.pool.query<{ source: string; payload: Record<string, unknown> }>(
    `select source, payload from contract_events
     where shop_id = $1 and contract_id = $2 and type = 'status_changed' order by id`,
    [env.shopIds[DOMAIN], contractId],
  )
  return rows
}

/** Calls to a mutation for one contract the emulator logged since `from`. */
const mutationCalls = (field: string, contractId: string, from = 0) =>
  env.emulator.callLog
    .slice(from)
    .filter(
      (c) =>
        c.shop === DOMAIN &&
        c.rootFields.includes(field) &&
        c.variables.id === toGid('SubscriptionContract', contractId),
    ).length

function act(path: 'pause' | 'resume' | 'churn', body: unknown, domain = DOMAIN) {
  return env.app.inject({
    method: 'POST',
    url: `/app-admin/${path}?shop=${domain}&secret=${SECRET}`,
    payload: body as Record<string, unknown>,
  })
}

describe('POST /app-admin/pause, /resume, /churn', () => {
  it('pauses then resumes an active contract: platform, mirror and one event each', async () => {
    const ids = await freshActive()
    const paused = await act('pause', ids)
    expect(paused.statusCode).toBe(200)
    expect(paused.json()).toMatchObject({ contractId: ids.contractId, status: 'PAUSED' })
    expect(platformContract(DOMAIN, Number(ids.contractId)).status).toBe('PAUSED')
    expect((await mirrorRow(ids.contractId))?.status).toBe('PAUSED')
    expect(mutationCalls('subscriptionContractPause', ids.contractId)).toBe(1)
    expect(await statusEvents(ids.contractId)).toEqual([
      { source: 'app', payload: { from: 'ACTIVE', to: 'PAUSED' } },
    ])

    // Pausing again changes nothing and asks the platform nothing.
    const again = await act('pause', ids)
    expect(again.statusCode).toBe(200)
    expect(again.json().status).toBe('PAUSED')
    expect(mutationCalls('subscriptionContractPause', ids.contractId)).toBe(1)

    const resumed = await act('resume', ids)
    expect(resumed.statusCode).toBe(200)
    expect(resumed.json()).toMatchObject({ contractId: ids.contractId, status: 'ACTIVE' })
    expect(platformContract(DOMAIN, Number(ids.contractId)).status).toBe('ACTIVE')
    expect((await mirrorRow(ids.contractId))?.status).toBe('ACTIVE')
    expect(mutationCalls('subscriptionContractActivate', ids.contractId)).toBe(1)
    expect(await statusEvents(ids.contractId)).toEqual([
      { source: 'app', payload: { from: 'ACTIVE', to: 'PAUSED' } },
      { source: 'app', payload: { from: 'PAUSED', to: 'ACTIVE' } },
    ])
  })

  it('logs one status_changed when the webhook of the same change is applied concurrently', async () => {
    const ids = await freshActive()
    const gid = toGid('SubscriptionContract', ids.contractId)
    // What the webhook path does once the platform reports the pause: re-read, then write
    // under the per-contract lock.
    const webhook = (async () => {
      while (platformContract(DOMAIN, Number(ids.contractId)).status !== 'PAUSED') {
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
      const write = await refreshContract(env.pool, env.clients[DOMAIN]!, env.shopIds[DOMAIN]!, gid)
      await withTransaction(env.pool, (tx) => write(tx, env.shopIds[DOMAIN]!))
    })()
    const [res] = await Promise.all([act('pause', ids), webhook])
    expect(res.statusCode).toBe(200)
    expect((await mirrorRow(ids.contractId))?.status).toBe('PAUSED')
    const moves = await statusEvents(ids.contractId)
    expect(moves).toHaveLength(1)
    expect(moves[0]?.payload).toEqual({ from: 'ACTIVE', to: 'PAUSED' })
  })

  it('churns with a reason kept on the event', async () => {
    const ids = await freshActive()
    const res = await act('churn', { ...ids, reason: '引っ越しのため' })
    expect(res.statusCode).toBe(200)
    expect(res.json().status).toBe('CANCELLED')
    expect(platformContract(DOMAIN, Number(ids.contractId)).status).toBe('CANCELLED')
    expect((await mirrorRow(ids.contractId))?.status).toBe('CANCELLED')
    expect(mutationCalls('subscriptionContractCancel', ids.contractId)).toBe(1)
    expect(await statusEvents(ids.contractId)).toEqual([
      { source: 'app', payload: { from: 'ACTIVE', to: 'CANCELLED', reason: '引っ越しのため' } },
    ])
  })

  it('refuses to churn or resume a cancelled contract with 409, without calling the platform', async () => {
    const ids = await freshActive()
    await setPlatformStatus('subscriptionContractCancel', ids.contractId)
    await mirror(DOMAIN, Number(ids.contractId))
    const before = env.emulator.callLog.length

    const resume = await act('resume', ids)
    expect(resume.statusCode).toBe(409)
    expect(resume.json()).toEqual({ error: { code: 'CONFLICT', message: '解約済みの契約は再開できません' } })

    const churn = await act('churn', ids)
    // Same status: a no-op, not a conflict.
    expect(churn.statusCode).toBe(200)
    expect(churn.json().status).toBe('CANCELLED')

    const pause = await act('pause', ids)
    expect(pause.statusCode).toBe(409)
    expect(pause.json().error.message).toBe('解約済みの契約は一時停止できません')

    expect(env.emulator.callLog.slice(before).filter((c) => c.shop === DOMAIN)).toEqual([])
  })

  it("answers 404 for another shop's contract, an unknown id and a wrong customer", async () => {
    const theirs = await freshActive(OTHER)
    const res = await act('pause', theirs)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: '契約が見つかりません' } })
    expect(platformContract(OTHER, Number(theirs.contractId)).status).toBe('ACTIVE')

    const unknown = await act('pause', { contractId: '999999999', customerId: '1' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json().error.code).toBe('NOT_FOUND')

    const ids = await freshActive()
    const wrongCustomer = await act('pause', { ...ids, customerId: `${ids.customerId}0` })
    expect(wrongCustomer.statusCode).toBe(404)
    expect((await mirrorRow(ids.contractId))?.status).toBe('ACTIVE')
  })

  it('answers 400 in Japanese for an invalid body', async () => {
    const missing = await act('pause', { contractId: '123' })
    expect(missing.statusCode).toBe(400)
    expect(missing.json().error.code).toBe('INVALID_INPUT')
    expect(missing.json().error.message).toMatch(/^入力内容が正しくありません。customerId/)

    const letters = await act('resume', { contractId: 'abc', customerId: '1' })
    expect(letters.statusCode).toBe(400)
    expect(letters.json().error.message).toContain('契約IDは数字で指定してください')

    const long = await act('churn', { contractId: '1', customerId: '1', reason: 'あ'.repeat(501) })
    expect(long.statusCode).toBe(400)
    expect(long.json().error.message).toContain('解約理由は500文字以内で入力してください')
  })

  it('answers 422 with the platform message when the platform refuses', async () => {
    const ids = await freshActive()
    expect((await act('pause', ids)).statusCode).toBe(200)
    // Cancelled on the platform while the mirror still says PAUSED.
    await setPlatformStatus('subscriptionContractCancel', ids.contractId)
    const res = await act('resume', ids)
    expect(res.statusCode).toBe(422)
    expect(res.json().error.code).toBe('PLATFORM_USER_ERROR')
    // The reason in Japanese from the userError's code, the platform's words on a 詳細 line.
    expect(res.json().error.message).toBe(
      'Shopify が契約の再開を受け付けませんでした：終了した契約（解約済み・期限切れ）のため、この操作はできません。' +
        '\n詳細: Cannot change the status of a cancelled contract',
    )
    expect((await mirrorRow(ids.contractId))?.status).toBe('PAUSED')
  })

  it('answers 502 and leaves the mirror alone when the platform keeps failing', async () => {
    const ids = await freshActive()
    const before = await mirrorRow(ids.contractId)
    env.emulator.faults.set({ errorRate: 1 })
    const res = await act('pause', ids)
    env.emulator.faults.reset()
    expect(res.statusCode).toBe(502)
    expect(res.json().error.code).toBe('PLATFORM_UNAVAILABLE')
    expect(res.json().error.message).toMatch(/一時停止できませんでした/)
    expect(await mirrorRow(ids.contractId)).toEqual(before)
    expect(platformContract(DOMAIN, Number(ids.contractId)).status).toBe('ACTIVE')
    expect(await statusEvents(ids.contractId)).toEqual([])
  })

  it("churns with one of the shop's reasons: stored with the contract, served by the detail", async () => {
    const ids = await freshActive()
    const created = await env.app.inject({
      method: 'POST',
      url: `/app-admin/cancellation-reasons?shop=${DOMAIN}&secret=${SECRET}`,
      payload: { reason: '商品が余っている' },
    })
    expect(created.statusCode).toBe(201)
    const reasonId = created.json().id as string
    const res = await act('churn', { ...ids, reasonId, reason: '3ヶ月分たまった' })
    expect(res.statusCode).toBe(200)
    expect(await statusEvents(ids.contractId)).toEqual([
      {
        source: 'app',
        payload: {
          from: 'ACTIVE',
          to: 'CANCELLED',
          reasonId,
          reason: '商品が余っている',
          comment: '3ヶ月分たまった',
        },
      },
    ])
    const stored = await env.app.inject({
      url: `/app-admin/subscription-contracts/${ids.contractId}/cancellation-reason?shop=${DOMAIN}&secret=${SECRET}`,
    })
    expect(stored.json()).toMatchObject({ contractId: ids.contractId, reasonId, reason: '商品が余っている' })
    const detail = await env.app.inject({
      url: `/app-admin/subscriptions/${ids.contractId}?shop=${DOMAIN}&secret=${SECRET}`,
    })
    expect(detail.json().cancellation).toMatchObject({ reasonId, reason: '商品が余っている' })
  })

  it('refuses an unknown cancellation reason with 404 before the platform cancels anything', async () => {
    const ids = await freshActive()
    const before = env.emulator.callLog.length
    const res = await act('churn', { ...ids, reasonId: '987654321' })
    expect(res.statusCode).toBe(404)
    expect(res.json().error.message).toBe('解約理由が見つかりません')
    expect(env.emulator.callLog.slice(before).filter((c) => c.shop === DOMAIN)).toEqual([])
    expect(platformContract(DOMAIN, Number(ids.contractId)).status).toBe('ACTIVE')
  })
})
