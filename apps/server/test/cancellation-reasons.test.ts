import {
  ZCancellationReason,
  ZCancellationReasonList,
  ZCancellationReasonsGroupedBy,
  ZContractCancellationReason,
  ZErrorResponse,
} from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { withTransaction } from '../src/db/pool.ts'
import {
  recordCancellation,
  resolveCancellationReason,
} from '../src/features/cancellation-reasons/service.ts'
import { AppError } from '../src/http/app-error.ts'
import { createShop, type SeedContract, seedContracts, useTestApp } from './support/fixtures.ts'

type Shop = Awaited<ReturnType<typeof createShop>>
let shop: Shop
let other: Shop

const customer = (id: string) => ({ id, lastName: '山田', firstName: '太郎', email: `${id}@example.jp` })
const contract = (id: string, customerId: string): SeedContract => ({
  id,
  status: 'CANCELLED',
  customer: customer(customerId),
  nextBillingDate: null,
})

const env = useTestApp()
beforeAll(async () => {
  shop = await createShop(env.pool, { prefix: 'reasons' })
  other = await createShop(env.pool, { prefix: 'reasons-other' })
  await seedContracts(
    env.pool,
    shop.id,
    Array.from({ length: 8 }, (_, i) => contract(String(30000000001 + i), String(7300000000001 + i))),
  )
  await seedContracts(env.pool, other.id, [contract('39000000001', '7390000000001')])
})

type Schema = { parse: (value: unknown) => unknown }

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { as?: Shop; body?: unknown; query?: Record<string, string>; schema?: Schema } = {},
) {
  const as = opts.as ?? shop
  const query = new URLSearchParams({ shop: as.domain, secret: as.secret, ...opts.query })
  const res = await env.app.inject({
    method,
    url: `/app-admin${path}?${query}`,
    ...(opts.body === undefined ? {} : { payload: opts.body as object }),
  })
  const body = res.body ? res.json() : undefined
  // Every answer must match the contract the web app codes against.
  if (res.statusCode >= 400) ZErrorResponse.parse(body)
  else if (opts.schema) opts.schema.parse(body)
  return { status: res.statusCode, body }
}

const list = async (as: Shop = shop) =>
  (await call('GET', '/cancellation-reasons', { as, schema: ZCancellationReasonList })).body
    .reasons as Array<{
    id: string
    reason: string
    position: number
  }>
const add = (reason: unknown, as: Shop = shop) =>
  call('POST', '/cancellation-reasons', { as, body: { reason }, schema: ZCancellationReason })

describe('cancellation reasons CRUD', () => {
  it('adds reasons at the end of the list, trimmed, and lists them in order', async () => {
    expect(await list()).toEqual([])
    const first = await add('  価格が高い  ')
    expect(first.status).toBe(201)
    expect(first.body).toEqual({ id: expect.stringMatching(/^\d+$/), reason: '価格が高い', position: 0 })
    const second = await add('商品に満足できなかった')
    expect(second.body.position).toBe(1)
    expect((await list()).map((r) => r.reason)).toEqual(['価格が高い', '商品に満足できなかった'])
  })

  it('refuses a duplicate text with 409 and a Japanese message', async () => {
    await add('配送が遅い')
    const duplicate = await add(' 配送が遅い ')
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toEqual({
      code: 'CONFLICT',
      message: '同じ解約理由がすでに登録されています',
    })
    // Another shop may have the same text.
    expect((await add('配送が遅い', other)).status).toBe(201)
  })

  it.each([
    [{ reason: '' }, /解約理由を入力してください/],
    [{ reason: '   ' }, /解約理由を入力してください/],
    [{ reason: 'あ'.repeat(201) }, /200文字以内/],
    [{}, /解約理由を入力してください/],
    [{ reason: 12 }, /解約理由を入力してください/],
  ])('rejects %j with 400 and a Japanese message', async (body, message) => {
    const res = await call('POST', '/cancellation-reasons', { body })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('INVALID_INPUT')
    expect(res.body.error.message).toMatch(/^入力内容が正しくありません。/)
    expect(res.body.error.message).toMatch(message)
  })

  it('accepts exactly 200 characters', async () => {
    const res = await add('い'.repeat(200))
    expect(res.status).toBe(201)
    expect(res.body.reason).toHaveLength(200)
  })

  it('renames a reason; 409 on another reason’s text; 400 on blank', async () => {
    const { body: created } = await add('引っ越し')
    const renamed = await call('PUT', `/cancellation-reasons/${created.id}`, {
      body: { reason: '引っ越しのため' },
      schema: ZCancellationReason,
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toEqual({ id: created.id, reason: '引っ越しのため', position: created.position })
    // Same text as itself is fine.
    const same = await call('PUT', `/cancellation-reasons/${created.id}`, {
      body: { reason: '引っ越しのため' },
    })
    expect(same.status).toBe(200)
    const clash = await call('PUT', `/cancellation-reasons/${created.id}`, { body: { reason: '価格が高い' } })
    expect(clash.status).toBe(409)
    expect(clash.body.error.message).toBe('同じ解約理由がすでに登録されています')
    const blank = await call('PUT', `/cancellation-reasons/${created.id}`, { body: { reason: ' ' } })
    expect(blank.status).toBe(400)
    expect((await list()).find((r) => r.id === created.id)?.reason).toBe('引っ越しのため')
  })

  it('answers 404 for unknown ids and another shop’s ids, and 400 for non-numeric ids', async () => {
    const { body: theirs } = await add('他店の理由', other)
    for (const id of ['999999999', theirs.id]) {
      const put = await call('PUT', `/cancellation-reasons/${id}`, { body: { reason: '乗っ取り' } })
      expect(put.status).toBe(404)
      expect(put.body.error).toEqual({ code: 'NOT_FOUND', message: '解約理由が見つかりません' })
      expect((await call('DELETE', `/cancellation-reasons/${id}`)).status).toBe(404)
    }
    expect((await list(other)).find((r) => r.id === theirs.id)?.reason).toBe('他店の理由')
    expect((await list()).some((r) => r.id === theirs.id)).toBe(false)
    const bad = await call('DELETE', '/cancellation-reasons/abc')
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toMatch(/解約理由IDは数字/)
  })

  it('deletes softly: gone from the list, 404 the second time, text can be added again', async () => {
    const { body: created } = await add('使い切れない')
    const deleted = await call('DELETE', `/cancellation-reasons/${created.id}`)
    expect(deleted.status).toBe(204)
    expect(deleted.body).toBeUndefined()
    expect((await list()).some((r) => r.id === created.id)).toBe(false)
    expect((await call('DELETE', `/cancellation-reasons/${created.id}`)).status).toBe(404)
    expect((await call('PUT', `/cancellation-reasons/${created.id}`, { body: { reason: 'x' } })).status).toBe(
      404,
    )
    const again = await add('使い切れない')
    expect(again.status).toBe(201)
    expect(again.body.id).not.toBe(created.id)
    const { rows } = await env.pool.query(
      'select deleted_at from cancellation_reasons where shop_id = $1 and id = $2',
      [shop.id, created.id],
    )
    expect(rows[0].deleted_at).toBeInstanceOf(Date)
  })

  it('requires credentials', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/app-admin/cancellation-reasons' })
    expect(res.statusCode).toBe(401)
  })
})

describe('recordCancellation / resolveCancellationReason', () => {
  const at = new Date('2026-03-01T03:00:00Z')

  it('resolves a live reason of the shop and refuses unknown, deleted or foreign ones', async () => {
    const { body: reason } = await add('飽きた')
    expect(await resolveCancellationReason(env.pool, shop.id, reason.id)).toBe('飽きた')
    const { body: theirs } = await add('他店だけの理由', other)
    await call('DELETE', `/cancellation-reasons/${reason.id}`)
    for (const id of [reason.id, theirs.id, '999999999', 'abc']) {
      const error = await resolveCancellationReason(env.pool, shop.id, id).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AppError)
      expect(error).toMatchObject({ code: 'NOT_FOUND', status: 404, message: '解約理由が見つかりません' })
    }
  })

  it('stores the reason text of an id, or the free text, and replaces the previous one', async () => {
    const contractId = '30000000001'
    const { body: reason } = await add('品質に不満')
    const stored = await withTransaction(env.pool, (client) =>
      recordCancellation(client, shop.id, contractId, { reasonId: reason.id, reason: 'コメント' }, at),
    )
    expect(stored).toEqual({ reasonId: reason.id, reason: '品質に不満' })
    const { rows } = await env.pool.query(
      'select reason_id::text, reason, cancelled_at from contract_cancellations where shop_id = $1 and contract_id = $2',
      [shop.id, contractId],
    )
    expect(rows).toEqual([{ reason_id: reason.id, reason: '品質に不満', cancelled_at: at }])

    const later = new Date('2026-04-01T00:00:00Z')
    expect(
      await recordCancellation(env.pool, shop.id, contractId, { reason: '  家族が反対  ' }, later),
    ).toEqual({
      reasonId: null,
      reason: '家族が反対',
    })
    const per = await call('GET', `/subscription-contracts/${contractId}/cancellation-reason`)
    expect(per.body).toEqual({
      contractId,
      reasonId: null,
      reason: '家族が反対',
      cancelledAt: later.toISOString(),
    })
  })

  it('stores nothing (and clears an older reason) when neither is given', async () => {
    const contractId = '30000000002'
    await recordCancellation(env.pool, shop.id, contractId, { reason: '古い理由' }, at)
    expect(await recordCancellation(env.pool, shop.id, contractId, { reason: '   ' }, at)).toBeNull()
    expect(await recordCancellation(env.pool, shop.id, contractId, {}, at)).toBeNull()
    const { rowCount } = await env.pool.query(
      'select 1 from contract_cancellations where shop_id = $1 and contract_id = $2',
      [shop.id, contractId],
    )
    expect(rowCount).toBe(0)
  })

  it('throws for an unknown reason id and leaves the transaction’s writes undone', async () => {
    const contractId = '30000000003'
    const error = await withTransaction(env.pool, async (client) => {
      await recordCancellation(client, shop.id, contractId, { reason: '書き込まれない' }, at)
      return recordCancellation(client, shop.id, contractId, { reasonId: '999999999' }, at)
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: '解約理由が見つかりません' })
    const { rowCount } = await env.pool.query(
      'select 1 from contract_cancellations where shop_id = $1 and contract_id = $2',
      [shop.id, contractId],
    )
    expect(rowCount).toBe(0)
  })
})

describe('a deleted or renamed reason keeps the recorded cancellation text', () => {
  it('per-contract answer is unchanged after rename and delete', async () => {
    const contractId = '30000000004'
    const { body: reason } = await add('サイズが合わない')
    const at = new Date('2026-05-10T10:00:00Z')
    await recordCancellation(env.pool, shop.id, contractId, { reasonId: reason.id }, at)
    await call('PUT', `/cancellation-reasons/${reason.id}`, { body: { reason: 'サイズ違い' } })
    await call('DELETE', `/cancellation-reasons/${reason.id}`)
    const per = await call('GET', `/subscription-contracts/${contractId}/cancellation-reason`, {
      schema: ZContractCancellationReason,
    })
    expect(per.status).toBe(200)
    expect(per.body).toEqual({
      contractId,
      reasonId: reason.id,
      reason: 'サイズが合わない',
      cancelledAt: at.toISOString(),
    })
  })
})

describe('GET /subscription-contracts/:id/cancellation-reason', () => {
  it('answers nulls for a contract without a recorded cancellation', async () => {
    const res = await call('GET', '/subscription-contracts/30000000008/cancellation-reason', {
      schema: ZContractCancellationReason,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ contractId: '30000000008', reasonId: null, reason: null, cancelledAt: null })
  })

  it('answers 404 for an unknown contract and for another shop’s contract', async () => {
    await recordCancellation(env.pool, other.id, '39000000001', { reason: '他店の解約' }, new Date())
    for (const id of ['39999999999', '39000000001']) {
      const res = await call('GET', `/subscription-contracts/${id}/cancellation-reason`)
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 'NOT_FOUND', message: '契約が見つかりません' })
    }
    const theirs = await call('GET', '/subscription-contracts/39000000001/cancellation-reason', { as: other })
    expect(theirs.body.reason).toBe('他店の解約')
    expect((await call('GET', '/subscription-contracts/abc/cancellation-reason')).status).toBe(400)
  })
})

describe('GET /subscription-contracts/cancellation-reasons-grouped-by', () => {
  let grouped: Shop
  let ids: { price: string; quality: string; unneeded: string }

  beforeAll(async () => {
    grouped = await createShop(env.pool, { prefix: 'reasons-grouped' })
    await seedContracts(
      env.pool,
      grouped.id,
      Array.from({ length: 7 }, (_, i) => contract(String(31000000001 + i), String(7310000000001 + i))),
    )
    ids = {
      price: (await add('価格', grouped)).body.id,
      quality: (await add('品質', grouped)).body.id,
      unneeded: (await add('不要', grouped)).body.id,
    }
    // 2026-03-31T15:00Z is 2026年4月1日 0:00 in Japan; 2026-03-31T14:59:59Z is still 3月31日.
    const record = (n: number, input: { reasonId?: string; reason?: string }, at: string) =>
      recordCancellation(env.pool, grouped.id, String(31000000000 + n), input, new Date(at))
    await record(1, { reasonId: ids.price }, '2026-03-31T14:59:59Z')
    await record(2, { reasonId: ids.price }, '2026-03-31T15:00:00Z')
    await record(3, { reasonId: ids.price }, '2026-04-10T00:00:00Z')
    await record(4, { reasonId: ids.quality }, '2026-04-15T00:00:00Z')
    await record(5, { reason: '転居' }, '2026-04-30T14:59:59Z')
    await record(6, { reason: '転居' }, '2026-04-30T15:00:00Z')
    await record(7, { reasonId: ids.unneeded }, '2026-02-01T00:00:00Z')
    // Renaming and deleting keep the group; the current text names it.
    await call('PUT', `/cancellation-reasons/${ids.quality}`, { as: grouped, body: { reason: '品質が悪い' } })
    await call('DELETE', `/cancellation-reasons/${ids.unneeded}`, { as: grouped })
  })

  const groupedBy = (query: Record<string, string> = {}) =>
    call('GET', '/subscription-contracts/cancellation-reasons-grouped-by', {
      as: grouped,
      query,
      schema: ZCancellationReasonsGroupedBy,
    })

  it('counts every recorded cancellation per reason, most frequent first', async () => {
    const { status, body } = await groupedBy()
    expect(status).toBe(200)
    expect(body).toEqual({
      groups: [
        { reasonId: ids.price, reason: '価格', count: 3 },
        { reasonId: null, reason: '転居', count: 2 },
        { reasonId: ids.unneeded, reason: '不要', count: 1 },
        { reasonId: ids.quality, reason: '品質が悪い', count: 1 },
      ],
      total: 7,
    })
  })

  it('filters on Japan-time calendar days of the cancellation', async () => {
    const april = await groupedBy({ startDate: '2026-04-01', endDate: '2026-04-30' })
    expect(april.body).toEqual({
      groups: [
        { reasonId: ids.price, reason: '価格', count: 2 },
        { reasonId: ids.quality, reason: '品質が悪い', count: 1 },
        { reasonId: null, reason: '転居', count: 1 },
      ],
      total: 4,
    })
    const march31 = await groupedBy({ startDate: '2026-03-31', endDate: '2026-03-31' })
    expect(march31.body).toEqual({ groups: [{ reasonId: ids.price, reason: '価格', count: 1 }], total: 1 })
    const fromMay = await groupedBy({ startDate: '2026-05-01' })
    expect(fromMay.body).toEqual({ groups: [{ reasonId: null, reason: '転居', count: 1 }], total: 1 })
    const untilFeb = await groupedBy({ endDate: '2026-02-28' })
    expect(untilFeb.body.total).toBe(1)
    expect((await groupedBy({ startDate: '2030-01-01' })).body).toEqual({ groups: [], total: 0 })
  })

  it('counts only the shop’s own cancellations', async () => {
    const { body } = await call('GET', '/subscription-contracts/cancellation-reasons-grouped-by', {
      as: other,
      schema: ZCancellationReasonsGroupedBy,
    })
    expect(body).toEqual({ groups: [{ reasonId: null, reason: '他店の解約', count: 1 }], total: 1 })
  })

  it.each([
    [{ startDate: '2026/04/01' }, /開始日は 2026-1-5 の形/],
    [{ startDate: '2026-02-30' }, /存在しない日付/],
    [{ startDate: '2026-04-02', endDate: '2026-04-01' }, /開始日は終了日以前/],
  ])('rejects %o with 400', async (query, message) => {
    const res = await groupedBy(query)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('INVALID_INPUT')
    expect(res.body.error.message).toMatch(message)
  })
})
