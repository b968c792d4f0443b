import { ZCustomerList, ZSegment, ZSegmentData, ZSegmentList } from '@teiki/contract'
import { matchesSegment, type SegmentConditions, type SegmentCustomer } from '@teiki/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CdpShops, cdpCall, expectCdpError, startCdpShops } from './support/cdp.ts'

// Issue 15: segments (create, update, list, delete, groups, traffic setting), the customers of a
// segment 10 a page, and the SQL of the condition language agreeing with the domain's.

let env: CdpShops
let shopId: string
beforeAll(async () => {
  env = await startCdpShops('cdp-seg')
  shopId = env.shopIds[env.main]!
  // The traffic feature fills contract_attributions (migration 0017); here its rows are inserted.
  await env.pool.query(
    `insert into contract_attributions (shop_id, contract_id, customer_id, source, medium, campaign, touched_at)
     select shop_id, id, customer_id, case when rn <= 8 then 'instagram' else 'google' end,
       case when rn <= 8 then 'social' else 'cpc' end, case when rn <= 8 then 'spring' else 'brand' end, created_at
     from (select *, row_number() over (order by id) as rn from subscription_contracts where shop_id = $1) c
     where rn <= 12`,
    [shopId],
  )
}, 120_000)
afterAll(() => env?.close())

const create = async (data: Record<string, unknown>, domain?: string) => {
  const res = await cdpCall(env, 'POST', '/cdp-segment-create', { data }, domain ? { domain } : {})
  expect(res.status, res.text).toBe(201)
  return ZSegment.parse(res.body)
}

/** Every customer of the main shop as the domain's matchesSegment sees them, from the mirror. */
async function mirrorCustomers(): Promise<Array<{ id: string; c: SegmentCustomer }>> {
  const { rows } = await env.pool.query(
    `select cu.id::text, cu.tags, coalesce(t.order_count, 0) as order_count, t.amounts, t.first_order_at,
       coalesce((select jsonb_agg(jsonb_build_object('status', sc.status, 'groups',
          (select coalesce(jsonb_agg(distinct sp.group_id::text), '[]') from subscription_lines l
           join selling_plans sp on sp.shop_id = l.shop_id and sp.id = l.selling_plan_id
           where l.shop_id = sc.shop_id and l.contract_id = sc.id)))
        from subscription_contracts sc where sc.shop_id = cu.shop_id and sc.customer_id = cu.id), '[]') as contracts,
       coalesce((select jsonb_agg(jsonb_build_object('source', a.source, 'medium', a.medium))
        from contract_attributions a where a.shop_id = cu.shop_id and a.customer_id = cu.id), '[]') as attributions
     from customers cu left join customer_totals t on t.shop_id = cu.shop_id and t.customer_id = cu.id
     where cu.shop_id = $1 order by cu.id desc`,
    [shopId],
  )
  return rows.map((r) => ({
    id: r.id,
    c: {
      tags: r.tags,
      orderCount: r.order_count,
      amounts: Object.fromEntries(
        Object.entries((r.amounts ?? {}) as Record<string, { amount: number }>).map(([k, v]) => [
          k,
          Number(v.amount),
        ]),
      ),
      firstOrderAt: r.first_order_at,
      contracts: r.contracts.map((k: { status: never; groups: string[] }) => ({
        status: k.status,
        sellingPlanGroupIds: k.groups,
      })),
      attributions: r.attributions,
    },
  }))
}

async function allPages(segmentId: string): Promise<string[]> {
  const ids: string[] = []
  for (let offset = 0; ; offset += 100) {
    const res = await cdpCall(
      env,
      'GET',
      `/cdp-customer-list?segmentId=${segmentId}&offset=${offset}&count=100`,
    )
    const page = ZCustomerList.parse(res.body)
    ids.push(...page.customers.map((c) => c.id))
    if (!page.hasNext) return ids
  }
}

describe('the condition language: SQL and domain agree', () => {
  it('mirror has customers with orders, totals and attributions to segment', async () => {
    const customers = await mirrorCustomers()
    expect(customers.length).toBeGreaterThanOrEqual(15)
    expect(customers.some((x) => x.c.orderCount >= 2)).toBe(true)
    expect(customers.some((x) => x.c.attributions.length > 0)).toBe(true)
  })

  it.each<[string, () => Promise<SegmentConditions>]>([
    ['empty: every customer', async () => ({})],
    ['one campaign (instagram)', async () => ({ traffic: [{ source: 'instagram' }] })],
    [
      'campaign and two orders or more',
      async () => ({ traffic: [{ source: 'instagram', medium: 'social' }], orderCount: { min: 2 } }),
    ],
    ['ACTIVE or PAUSED', async () => ({ statuses: ['ACTIVE', 'PAUSED'] })],
    ['order count 1–3', async () => ({ orderCount: { min: 1, max: 3 } })],
    ['LTV ≥ ¥5,000', async () => ({ lifetimeValue: { min: 5000 } })],
    ['first order in 2026 (JST)', async () => ({ firstOrderDate: { from: '2026-01-01', to: '2026-12-31' } })],
    [
      'a selling plan group',
      async () => {
        const { rows } = await env.pool.query(
          'select id::text from selling_plan_groups where shop_id = $1 limit 1',
          [shopId],
        )
        return { sellingPlanGroupIds: [rows[0].id] }
      },
    ],
    ['tag 定期購入者, not VIP', async () => ({ tags: { any: ['定期購入者'], none: ['VIP'] } })],
  ])('%s', async (_name, conditions) => {
    const c = await conditions()
    const segment = await create({ name: 'agree', conditions: c })
    const expected = (await mirrorCustomers())
      .filter((x) => matchesSegment(x.c, c, 'JPY', 'Asia/Tokyo'))
      .map((x) => x.id)
    expect(await allPages(segment.id)).toEqual(expected)
    const data = ZSegmentData.parse(
      (await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${segment.id}`)).body,
    )
    expect(data.total).toBe(expected.length)
  })
})

describe('segments', () => {
  it('create, list, data, update and delete; the description says the conditions in Japanese', async () => {
    const made = await create({
      name: '春キャンペーン2回以上',
      conditions: {
        traffic: [{ source: 'instagram', medium: 'social' }],
        orderCount: { min: 2 },
        lifetimeValue: { min: 1000 },
      },
    })
    expect(made.description).toEqual(['流入元 instagram / social', '購入回数 2回以上', 'LTV ¥1,000以上'])
    expect(made.error).toBeNull()
    const list = ZSegmentList.parse((await cdpCall(env, 'GET', '/cdp-segment-list')).body)
    expect(list.segments[0]!.id).toBe(made.id)
    const updated = await cdpCall(env, 'POST', '/cdp-segment-update', {
      data: { id: made.id, name: '春キャンペーン', conditions: { traffic: [{ source: 'instagram' }] } },
    })
    expect(updated.status, updated.text).toBe(200)
    expect(ZSegment.parse(updated.body)).toMatchObject({
      name: '春キャンペーン',
      conditions: { traffic: [{ source: 'instagram' }] },
    })
    const deleted = await cdpCall(env, 'GET', `/cdp-segment-delete?segmentId=${made.id}`)
    expect(deleted.status, deleted.text).toBe(200)
    expect(deleted.headers['cache-control']).toBe('no-store')
    expectCdpError(
      await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${made.id}`),
      404,
      'セグメントが見つかりません',
    )
    expectCdpError(
      await cdpCall(env, 'GET', `/cdp-segment-delete?segmentId=${made.id}`),
      404,
      'セグメントが見つかりません',
    )
  })

  it('the GET that deletes refuses navigations, embeds, prefetches and other sites', async () => {
    const made = await create({ name: '消さない', conditions: {} })
    const refusals: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      { 'sec-purpose': 'prefetch' },
    ]
    for (const headers of refusals) {
      expectCdpError(
        await cdpCall(env, 'GET', `/cdp-segment-delete?segmentId=${made.id}`, undefined, { headers }),
        403,
        'アプリの画面からのみ',
      )
    }
    expect((await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${made.id}`)).status).toBe(200)
    const fromApp = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }
    expect(
      (await cdpCall(env, 'GET', `/cdp-segment-delete?segmentId=${made.id}`, undefined, { headers: fromApp }))
        .status,
    ).toBe(200)
  })

  it('refuses bad input with Japanese messages and writes nothing', async () => {
    const before = (await env.pool.query('select count(*)::int as n from cdp_segments')).rows[0].n
    const bad: Array<[unknown, RegExp | string]> = [
      [{ data: { name: '', conditions: {} } }, 'セグメント名を入力してください'],
      [{ data: { name: 'x'.repeat(101), conditions: {} } }, 'セグメント名は100文字以内'],
      [{ data: { name: 'a\u0000b', conditions: {} } }, '制御文字'],
      [{ data: { name: 'x', conditions: { orderCount: { min: 3, max: 2 } } } }, '購入回数の下限は上限以下'],
      [{ data: { name: 'x', conditions: { orderCount: { min: 1.5 } } } }, '整数'],
      [{ data: { name: 'x', conditions: { lifetimeValue: { min: -1 } } } }, '0以上'],
      [{ data: { name: 'x', conditions: { firstOrderDate: { from: '2026-02-30' } } } }, '存在しない日付'],
      [{ data: { name: 'x', conditions: { statuses: ['RUNNING'] } } }, '入力内容が正しくありません'],
      [{ data: { name: 'x', conditions: { tags: { any: ['a,b'] } } } }, 'カンマ'],
      [{ data: { name: 'x', conditions: { sellingPlanGroupIds: ['0'] } } }, '販売プランID'],
      [{ data: { name: 'x', conditions: {}, extra: 1 } }, '不明な項目です: extra'],
      [{ data: { name: 'x', groupId: '999999999', conditions: {} } }, '指定したグループが見つかりません'],
      [{ name: 'x' }, '入力内容が正しくありません'],
    ]
    for (const [body, message] of bad)
      expectCdpError(await cdpCall(env, 'POST', '/cdp-segment-create', body), 400, message)
    expectCdpError(await cdpCall(env, 'GET', '/cdp-segment-data?segmentId=0'), 400, 'セグメントID')
    expectCdpError(
      await cdpCall(env, 'GET', '/cdp-segment-data?segmentId=99999999999999999999'),
      400,
      'セグメントID',
    )
    expectCdpError(
      await cdpCall(env, 'GET', '/cdp-customer-list?segmentId=1&count=101'),
      400,
      '件数は100以下',
    )
    expectCdpError(
      await cdpCall(env, 'GET', '/cdp-customer-list?segmentId=1&offset=-1'),
      400,
      '開始位置は0以上',
    )
    expect((await env.pool.query('select count(*)::int as n from cdp_segments')).rows[0].n).toBe(before)
  })

  it('a deleted selling plan group keeps the segment with an error text (spec §8)', async () => {
    const made = await create({ name: '消えたプラン', conditions: { sellingPlanGroupIds: ['424242'] } })
    expect(made.error).toBe('条件の販売プラン（#424242）は削除されています。条件を見直してください')
    expect(made.description).toEqual(['販売プラン #424242'])
  })

  it('groups: POST /cdp-group-list/ adds a group once by name and lists them; a segment joins one', async () => {
    const first = await cdpCall(env, 'POST', '/cdp-group-list/', { name: 'キャンペーン' })
    expect(first.status, first.text).toBe(200)
    await cdpCall(env, 'POST', '/cdp-group-list/', { name: 'キャンペーン' })
    const groups = (await cdpCall(env, 'POST', '/cdp-group-list/', {})).body.groups as Array<{
      id: string
      name: string
    }>
    expect(groups.filter((g) => g.name === 'キャンペーン')).toHaveLength(1)
    const made = await create({ name: 'グループ入り', groupId: groups[0]!.id, conditions: {} })
    expect(made).toMatchObject({ groupId: groups[0]!.id, groupName: 'キャンペーン' })
    const listed = (await cdpCall(env, 'POST', '/cdp-group-list/', {})).body.groups as Array<{
      segmentCount: number
    }>
    expect(listed[0]!.segmentCount).toBe(1)
    expectCdpError(
      await cdpCall(env, 'POST', '/cdp-group-list/', { name: '' }),
      400,
      'グループ名を入力してください',
    )
  })

  it('setting: the sources and media seen, filtered by source', async () => {
    const all = (await cdpCall(env, 'GET', '/cdp-segment-setting')).body.sources as Array<{
      source: string
      contracts: number
    }>
    expect(all.map((s) => [s.source, s.contracts])).toEqual([
      ['instagram', 8],
      ['google', 4],
    ])
    const ig = (await cdpCall(env, 'GET', '/cdp-segment-setting?source=google&medium=cpc')).body.sources
    expect(ig).toEqual([{ source: 'google', medium: 'cpc', contracts: 4, customers: expect.any(Number) }])
  })
})

describe('the customers of a segment, 10 a page (spec §9)', () => {
  it('pages with hasNext and the range shown', async () => {
    const everyone = await create({ name: '全員', conditions: {} })
    const total = ZSegmentData.parse(
      (await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${everyone.id}`)).body,
    ).total
    expect(total).toBeGreaterThan(10)
    const first = ZCustomerList.parse(
      (await cdpCall(env, 'GET', `/cdp-customer-list?segmentId=${everyone.id}`)).body,
    )
    expect(first.customers).toHaveLength(10)
    expect(first).toMatchObject({ hasNext: true, range: { from: 1, to: 10 } })
    expect(first.customers[0]!.displayName).toMatch(/^\S+ \S+$/) // family name first, e.g. 佐藤 花子
    const lastOffset = Math.floor((total - 1) / 10) * 10
    const last = ZCustomerList.parse(
      (await cdpCall(env, 'GET', `/cdp-customer-list?segmentId=${everyone.id}&offset=${lastOffset}`)).body,
    )
    expect(last).toMatchObject({ hasNext: false, range: { from: lastOffset + 1, to: total } })
    const beyond = ZCustomerList.parse(
      (await cdpCall(env, 'GET', `/cdp-customer-list?segmentId=${everyone.id}&offset=${total}`)).body,
    )
    expect(beyond).toEqual({ customers: [], hasNext: false, range: { from: 0, to: 0 } })
  })
})

describe('isolation between shops', () => {
  it("another shop's segment is not found, and its customers never appear", async () => {
    const theirs = await create({ name: '他店', conditions: {} }, env.other)
    for (const path of [
      `/cdp-segment-data?segmentId=${theirs.id}`,
      `/cdp-customer-list?segmentId=${theirs.id}`,
      `/cdp-segment-delete?segmentId=${theirs.id}`,
    ]) {
      expectCdpError(await cdpCall(env, 'GET', path), 404, 'セグメントが見つかりません')
    }
    expectCdpError(
      await cdpCall(env, 'POST', '/cdp-segment-update', {
        data: { id: theirs.id, name: '乗っ取り', conditions: {} },
      }),
      404,
      'セグメントが見つかりません',
    )
    const stillThere = await cdpCall(env, 'GET', `/cdp-segment-data?segmentId=${theirs.id}`, undefined, {
      domain: env.other,
    })
    expect(ZSegmentData.parse(stillThere.body).segment.name).toBe('他店')
    const list = ZSegmentList.parse((await cdpCall(env, 'GET', '/cdp-segment-list')).body)
    expect(list.segments.map((s) => s.id)).not.toContain(theirs.id)
    const mine = await create({ name: '自店全員', conditions: {} })
    const ids = await allPages(mine.id)
    const { rows } = await env.pool.query('select id::text from customers where shop_id = $1', [
      env.shopIds[env.other],
    ])
    expect(ids.filter((id) => rows.some((r) => r.id === id) && !ids.includes(id))).toEqual([])
    expect(ids.length).toBe(
      (await env.pool.query('select count(*)::int as n from customers where shop_id = $1', [shopId])).rows[0]
        .n,
    )
  })
})
