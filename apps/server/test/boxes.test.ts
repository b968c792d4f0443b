import { ZBox, ZBoxDetail, ZBoxList } from '@teiki/contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { call, callsSince, expectError, plan, planDigest, usePlanShops } from './support/selling-plans.ts'

// Boxes (issue 13 item 3): created with defaults, saved field by field, all four fields required,
// min ≤ max ≤ the group's product count; the detail shows the group's products.

const env = usePlanShops('boxes')
let groupId: string
const productIds: string[] = []
beforeAll(async () => {
  const products = env.emulator.store.shop(env.main)!.products.slice(0, 4)
  productIds.push(...products.map((p) => String(p.id)))
  const res = await call(env, 'POST', '/selling-plan-groups', {
    name: '詰め合わせ',
    plans: [plan('毎月')],
    productIds,
  })
  groupId = (res.body as { id: string }).id
})

const otherGroupId = () => String(env.emulator.store.shop(env.other)!.sellingPlanGroups[0]!.id)

async function newBox(name?: string) {
  const res = await call(env, 'POST', '/boxes', name === undefined ? {} : { name })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return ZBox.parse(res.body)
}

describe('boxes', () => {
  it('POST creates a box with the defaults, incomplete until the merchant fills it in', async () => {
    const box = await newBox()
    expect(box).toMatchObject({
      name: '新しいボックス',
      minSelection: 1,
      maxSelection: null,
      sellingPlanGroupId: null,
      sellingPlanGroup: null,
      complete: false,
      problems: {
        maxSelection: '最大選択数を入力してください',
        sellingPlanGroupId: '販売プランを選んでください',
      },
    })
    expect((await newBox('コーヒー3種')).name).toBe('コーヒー3種')
  })

  // Before, POST kept only `name` and dropped the other fields without a word.
  it('POST applies the fields it is given over the defaults, or refuses them and creates nothing', async () => {
    const made = await call(env, 'POST', '/boxes', {
      name: '選べる3品',
      sellingPlanGroupId: groupId,
      minSelection: 2,
      maxSelection: 3,
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    expect(ZBox.parse(made.body)).toMatchObject({
      name: '選べる3品',
      minSelection: 2,
      maxSelection: 3,
      sellingPlanGroupId: groupId,
      sellingPlanGroup: { id: groupId, productsCount: 4 },
      complete: true,
    })
    expect(ZBox.parse((await call(env, 'POST', '/boxes', { maxSelection: 2 })).body)).toMatchObject({
      name: '新しいボックス',
      minSelection: 1,
      maxSelection: 2,
    })
    const count = async () => ZBoxList.parse((await call(env, 'GET', '/boxes')).body).total
    const before = await count()
    const refusals: Array<[unknown, number, string]> = [
      [{ minSelection: 3, maxSelection: 2 }, 400, '最大選択数は最小選択数（3）以上にしてください'],
      [{ sellingPlanGroupId: groupId, maxSelection: 5 }, 400, '販売プランの商品数（4件）以下'],
      [{ maxSelection: 0 }, 400, '最大選択数は1以上の整数で入力してください'],
      [{ name: '' }, 400, 'ボックス名を入力してください'],
      [{ name: '箱', products: ['1'] }, 400, '不明な項目です: products'],
      [{ sellingPlanGroupId: otherGroupId() }, 404, '販売プランが見つかりません'],
    ]
    for (const [body, status, message] of refusals)
      expectError(await call(env, 'POST', '/boxes', body), status, message)
    expect(await count()).toBe(before)
    expectError(
      await call(env, 'PUT', `/boxes/${ZBox.parse(made.body).id}`, { min: 1 }),
      400,
      '不明な項目です: min',
    )
  })

  it('PUT saves field by field; a refused field keeps what was saved before it', async () => {
    const box = await newBox()
    const put = (body: unknown) => call(env, 'PUT', `/boxes/${box.id}`, body)
    expect((await put({ sellingPlanGroupId: groupId })).status).toBe(200)
    expect((await put({ name: '選べる4品' })).status).toBe(200)
    expect((await put({ maxSelection: 3 })).status).toBe(200)
    // min above the stored max: refused on min, nothing of it saved.
    expectError(await put({ minSelection: 4 }), 400, '最小選択数は最大選択数（3）以下にしてください')
    // max above the group's 4 products.
    expectError(
      await put({ maxSelection: 5 }),
      400,
      '最大選択数は販売プランの商品数（4件）以下にしてください',
    )
    expectError(await put({ name: '' }), 400, 'ボックス名を入力してください')
    expectError(await put({ name: null }), 400, 'ボックス名を入力してください')
    expectError(await put({ maxSelection: null }), 400, '最大選択数を入力してください')
    expectError(await put({ sellingPlanGroupId: null }), 400, '販売プランを選んでください')
    expectError(await put({}), 400, '保存する項目を指定してください')
    expectError(await put({ minSelection: 1.5 }), 400, /整数で入力してください/)
    const saved = ZBox.parse((await put({ minSelection: 2 })).body)
    expect(saved).toMatchObject({
      name: '選べる4品',
      minSelection: 2,
      maxSelection: 3,
      sellingPlanGroupId: groupId,
      sellingPlanGroup: { id: groupId, name: '詰め合わせ', productsCount: 4 },
      complete: true,
      problems: {},
    })
    // max = product count, min = max: the boundaries are accepted.
    expect((await put({ maxSelection: 4 })).status).toBe(200)
    expect(ZBox.parse((await put({ minSelection: 4 })).body).complete).toBe(true)
  })

  it('GET /boxes/:id shows the group’s products, read from the platform; without a group, none', async () => {
    const box = await newBox('商品つき')
    await call(env, 'PUT', `/boxes/${box.id}`, { sellingPlanGroupId: groupId })
    const from = env.emulator.callLog.length
    const detail = ZBoxDetail.parse((await call(env, 'GET', `/boxes/${box.id}`)).body)
    expect(callsSince(env.emulator, from, env.main).map((c) => c.operationName)).toEqual([
      'SellingPlanGroupProducts',
    ])
    expect(detail.products.map((p) => p.id).sort()).toEqual([...productIds].sort())
    expect(detail.products[0]!.imageUrl).toMatch(/\.svg$/)
    const bare = await newBox('商品なし')
    expect(ZBoxDetail.parse((await call(env, 'GET', `/boxes/${bare.id}`)).body).products).toEqual([])
  })

  it('GET /boxes lists the shop’s boxes newest first with what is missing', async () => {
    const list = ZBoxList.parse((await call(env, 'GET', '/boxes')).body)
    expect(list.total).toBe(list.boxes.length)
    expect(list.boxes[0]!.name).toBe('商品なし')
    expect(list.boxes.some((b) => b.complete)).toBe(true)
    expect(list.boxes.some((b) => !b.complete && b.problems.maxSelection)).toBe(true)
    expect(ZBoxList.parse((await call(env, 'GET', '/boxes', undefined, env.other)).body).boxes).toEqual([])
  })

  it('a box whose group was deleted keeps its fields and reads as unfilled', async () => {
    const made = await call(env, 'POST', '/selling-plan-groups', {
      name: '消える',
      plans: [plan('毎月')],
      productIds,
    })
    const gone = (made.body as { id: string }).id
    const box = await newBox('消える販売プラン')
    await call(env, 'PUT', `/boxes/${box.id}`, { sellingPlanGroupId: gone })
    await call(env, 'PUT', `/boxes/${box.id}`, { maxSelection: 2 })
    expect((await call(env, 'DELETE', `/selling-plan-groups/${gone}`)).status).toBe(204)
    const after = ZBoxDetail.parse((await call(env, 'GET', `/boxes/${box.id}`)).body).box
    expect(after).toMatchObject({
      name: '消える販売プラン',
      maxSelection: 2,
      sellingPlanGroupId: gone,
      sellingPlanGroup: null,
      complete: false,
    })
    expect(after.problems.sellingPlanGroupId).toMatch(/削除されています/)
  })

  it('every change rewrites the storefront’s copy (app-data metafield teiki.boxes): complete boxes only', async () => {
    /** What the storefront's box block reads (the platform's app-data metafield). */
    const published = async () => {
      const res = await env.emulator.graphql(env.main, {
        query: '{ currentAppInstallation { metafield(namespace: "teiki", key: "boxes") { value } } }',
      })
      const data = res.data as { currentAppInstallation: { metafield: { value: string } | null } }
      const field = data.currentAppInstallation.metafield
      return field ? (JSON.parse(field.value) as Array<Record<string, unknown>>) : []
    }
    const box = await newBox('ストア用')
    const put = (body: unknown) => call(env, 'PUT', `/boxes/${box.id}`, body)
    expect((await published()).some((b) => b.id === box.id)).toBe(false)
    await put({ sellingPlanGroupId: groupId })
    await put({ maxSelection: 3 })
    const from = env.emulator.callLog.length
    expect((await put({ minSelection: 2 })).status).toBe(200)
    expect(callsSince(env.emulator, from, env.main).map((c) => c.operationName)).toContain('MetafieldsSet')
    const group = env.emulator.store.shop(env.main)!.sellingPlanGroups.find((g) => String(g.id) === groupId)!
    const handles = env.emulator.store
      .shop(env.main)!
      .products.filter((p) => productIds.includes(String(p.id)))
      .map((p) => p.handle)
    const mine = (await published()).find((b) => b.id === box.id)!
    expect(mine).toMatchObject({ name: 'ストア用', minSelection: 2, maxSelection: 3 })
    expect(mine.sellingPlanIds).toEqual(group.sellingPlans.map((p) => String(p.id)).sort())
    expect([...(mine.productHandles as string[])].sort()).toEqual([...handles].sort())
    expect((await call(env, 'DELETE', `/boxes/${box.id}`)).status).toBe(204)
    expect((await published()).some((b) => b.id === box.id)).toBe(false)
  })

  it('every change writes the boxes’ rules to the shop’s box rules validation, made enabled once; another shop’s is its own', async () => {
    /** The shop's validations of the box rules function, with their rules (the platform's state). */
    const validations = async (domain: string) => {
      const res = await env.emulator.graphql(domain, {
        query:
          '{ validations(first: 25) { nodes { id enabled title shopifyFunction { title } metafield(namespace: "teiki", key: "box_rules") { jsonValue } } } }',
      })
      type Node = {
        id: string
        enabled: boolean
        title: string
        shopifyFunction: { title: string }
        metafield: { jsonValue: { boxes: Array<Record<string, unknown>> } } | null
      }
      return (res.data as { validations: { nodes: Node[] } }).validations.nodes.filter(
        (v) => v.shopifyFunction.title === 'teiki-box-rules',
      )
    }
    const box = await newBox('ルール用')
    const put = (body: unknown) => call(env, 'PUT', `/boxes/${box.id}`, body)
    await put({ sellingPlanGroupId: groupId })
    await put({ maxSelection: 3 })
    const from = env.emulator.callLog.length
    expect((await put({ minSelection: 2 })).status).toBe(200)
    expect(callsSince(env.emulator, from, env.main).map((c) => c.operationName)).toEqual(
      expect.arrayContaining(['ShopifyFunctions', 'Validations']),
    )
    const [mine, ...more] = await validations(env.main)
    expect(more).toEqual([])
    expect(mine).toMatchObject({ enabled: true, title: '詰め合わせボックスの選択数' })
    expect(mine!.metafield!.jsonValue.boxes).toContainEqual({
      id: box.id,
      name: 'ルール用',
      minSelection: 2,
      maxSelection: 3,
    })
    // The next save rewrites the same validation's metafield: no second validation.
    await put({ maxSelection: 4 })
    const [again, ...none] = await validations(env.main)
    expect(none).toEqual([])
    expect(again!.id).toBe(mine!.id)
    expect(again!.metafield!.jsonValue.boxes).toContainEqual(
      expect.objectContaining({ id: box.id, maxSelection: 4 }),
    )
    // An incomplete box has no rule; a deleted one loses its rule.
    const rulesOf = async () => (await validations(env.main))[0]!.metafield!.jsonValue.boxes.map((b) => b.id)
    expect(await rulesOf()).not.toContain((await newBox('未完成')).id)
    expect((await call(env, 'DELETE', `/boxes/${box.id}`)).status).toBe(204)
    expect(await rulesOf()).not.toContain(box.id)
    // The other shop's validation (made by its own box save) holds none of this shop's boxes.
    await call(env, 'POST', '/boxes', { name: '他店' }, env.other)
    const theirs = await validations(env.other)
    expect(theirs.map((v) => v.metafield!.jsonValue)).toEqual([{ boxes: [] }])
    expect(theirs[0]!.id).not.toBe(mine!.id)
  })

  it('a box saved while its rules cannot be published is kept, and the merchant is told so', async () => {
    const box = await newBox('反映失敗')
    env.emulator.store.shop(env.main)!.installation.scopes = env.emulator.store
      .shop(env.main)!
      .installation.scopes.filter((s) => s !== 'write_validations')
    try {
      expectError(
        await call(env, 'PUT', `/boxes/${box.id}`, { name: '反映失敗2' }),
        502,
        /選択数の確認に反映できませんでした/,
      )
    } finally {
      env.emulator.store.shop(env.main)!.installation.scopes.push('write_validations')
    }
    expect(ZBoxDetail.parse((await call(env, 'GET', `/boxes/${box.id}`)).body).box.name).toBe('反映失敗2')
  })

  it('DELETE removes the box; another shop’s box and group are not found (404), writing nothing', async () => {
    const box = await newBox('削除')
    const foreign = ZBox.parse((await call(env, 'POST', '/boxes', {}, env.other)).body)
    const before = [await planDigest(env, env.main), await planDigest(env, env.other)]
    expectError(await call(env, 'GET', `/boxes/${foreign.id}`), 404, 'ボックスが見つかりません')
    expectError(
      await call(env, 'PUT', `/boxes/${foreign.id}`, { name: '乗っ取り' }),
      404,
      'ボックスが見つかりません',
    )
    expectError(await call(env, 'DELETE', `/boxes/${foreign.id}`), 404, 'ボックスが見つかりません')
    expectError(
      await call(env, 'PUT', `/boxes/${box.id}`, { sellingPlanGroupId: otherGroupId() }),
      404,
      '販売プランが見つかりません',
    )
    expectError(await call(env, 'GET', '/boxes/0'), 400, /ボックスIDは1〜/)
    expect([await planDigest(env, env.main), await planDigest(env, env.other)]).toEqual(before)
    expect((await call(env, 'DELETE', `/boxes/${box.id}`)).status).toBe(204)
    expectError(await call(env, 'GET', `/boxes/${box.id}`), 404, 'ボックスが見つかりません')
  })
})
