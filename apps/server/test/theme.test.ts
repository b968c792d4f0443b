import { ZAppBlockSupport, ZErrorResponse, ZScriptTagList, ZThemeList } from '@teiki/contract'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PLANS_BLOCK_TYPE } from '../src/features/theme/extension.ts'
import { type EmulatedApp, startEmulatedApp } from './support/emulated-app.ts'
import { TEST_API_KEY, testDomain } from './support/fixtures.ts'

// Spec §7 "Theme" and script tags, against the emulator: every path's success, bad input
// (400 in Japanese, nothing written), the platform's refusal (422), another shop's ids (404),
// and the Admin API calls each makes. Writing theme files needs an exemption few apps get
// (issue 23): `env` plays an app without it (the platform's default: ウィジェットを追加 falls
// back to the theme editor's deep link), `exempt` one that holds it.

const DOMAIN = testDomain('theme')
const OTHER = testDomain('theme-other')
const EXEMPT = testDomain('theme-exempt')
const SECRET = 'theme-secret'

let env: EmulatedApp
let exempt: EmulatedApp
beforeAll(async () => {
  const shops = [
    { domain: DOMAIN, contracts: 3 },
    { domain: OTHER, contracts: 3 },
  ]
  env = await startEmulatedApp({ shops, secret: SECRET })
  exempt = await startEmulatedApp({
    shops: [{ domain: EXEMPT, contracts: 3 }],
    secret: SECRET,
    emulatorOptions: { themeFilesExemption: true },
  })
})
afterAll(async () => {
  await env.close()
  await exempt.close()
})
beforeEach(() => {
  env.emulator.faults.reset()
  exempt.emulator.faults.reset()
})

/** The emulated app a shop lives in. */
const envOf = (domain: string) => (domain === EXEMPT ? exempt : env)

function call(method: string, path: string, body?: unknown, domain = DOMAIN) {
  return envOf(domain).app.inject({
    method: method as 'GET',
    url: `/app-admin${path}${path.includes('?') ? '&' : '?'}shop=${domain}&secret=${SECRET}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}
const callCount = (domain = DOMAIN) => envOf(domain).emulator.callLog.length
const calls = (from: number, domain = DOMAIN) =>
  envOf(domain)
    .emulator.callLog.slice(from)
    .filter((c) => c.shop === domain)
    .map((c) => c.rootFields.join(','))
const themes = (domain = DOMAIN) => envOf(domain).emulator.store.shop(domain)!.extra!.themes
/** The published theme's and the vintage theme's ids, after the first request created them. */
async function themeIds(domain = DOMAIN) {
  const res = await call('GET', '/themes', undefined, domain)
  const list = ZThemeList.parse(res.json()).themes
  return { dawn: list.find((t) => t.role === 'MAIN')!.id, debut: list.find((t) => t.name === 'Debut')!.id }
}
const file = (themeId: string, name: string, domain = DOMAIN) =>
  themes(domain)
    .find((t) => String(t.id) === themeId)!
    .files.find((f) => f.filename === name)?.content
const hasJapanese = (text: string) => /[\u3040-\u30ff\u4e00-\u9faf]/.test(text)

describe('GET /themes', () => {
  it('lists the shop’s themes with their roles', async () => {
    const res = await call('GET', '/themes')
    expect(res.statusCode).toBe(200)
    expect(ZThemeList.parse(res.json()).themes.map((t) => [t.name, t.role])).toEqual([
      ['Dawn', 'MAIN'],
      ['Debut', 'UNPUBLISHED'],
    ])
  })
})

describe('GET /themes/:id/templates/:t/app-block-support', () => {
  it('says the published Dawn accepts app blocks, with the theme editor link and the store preview', async () => {
    const { dawn } = await themeIds()
    const before = callCount()
    const res = await call('GET', `/themes/${dawn}/templates/product/app-block-support`)
    expect(res.statusCode, res.body).toBe(200)
    const body = ZAppBlockSupport.parse(res.json())
    const product = env.emulator.store.shop(DOMAIN)!.sellingPlanGroups[0]!.productIds[0]
    const handle = env.emulator.store.shop(DOMAIN)!.products.find((p) => p.id === product)!.handle
    expect(body).toEqual({
      themeId: dawn,
      themeName: 'Dawn',
      template: 'product',
      supported: true,
      problem: null,
      blockAdded: false,
      message: 'このテーマの商品ページはアプリブロックに対応しています。',
      editorUrl: `${env.url}/admin/themes/${dawn}/editor?template=product&addAppBlockId=${TEST_API_KEY}/subscription-plans&target=mainSection`,
      previewUrl: `${env.url}/s/${DOMAIN}/products/${handle}`,
      // Never refused yet: ウィジェットを追加 tries the theme-file write first.
      widgetMethod: 'themeFiles',
      widgetMethodMessage: expect.stringContaining(
        'アプリが商品ページのテンプレートにウィジェットを書き込みます',
      ),
    })
    // Reads only: the template, its main section, a product sold on a plan.
    expect(calls(before)).toEqual(['theme', 'theme', 'sellingPlanGroups'])
  })

  it('says why a vintage theme does not, in Japanese, and previews it as an unpublished theme', async () => {
    const { debut } = await themeIds()
    const body = ZAppBlockSupport.parse(
      (await call('GET', `/themes/${debut}/templates/product/app-block-support`)).json(),
    )
    expect(body).toMatchObject({ supported: false, problem: 'NOT_JSON_TEMPLATE', blockAdded: false })
    expect(body.message).toContain('JSONテンプレートではないため')
    expect(body.previewUrl).toMatch(new RegExp(`\\?preview_theme_id=${debut}$`))
  })

  it.each([
    ['/themes/abc/templates/product/app-block-support', 'テーマIDは数字で指定してください'],
    [
      '/themes/1/templates/Product!/app-block-support',
      'テンプレート名は product や product.gift のように英小文字で指定してください',
    ],
  ])('refuses %s with 400 in Japanese, asking nothing of the platform', async (path, message) => {
    const before = callCount()
    const res = await call('GET', path)
    expect(res.statusCode).toBe(400)
    expect(ZErrorResponse.parse(res.json()).error.message).toContain(message)
    expect(calls(before)).toEqual([])
  })

  it('answers 404 for another shop’s theme', async () => {
    const { dawn } = await themeIds(OTHER)
    const res = await call('GET', `/themes/${dawn}/templates/product/app-block-support`)
    expect(res.statusCode).toBe(404)
    expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: 'テーマが見つかりません' })
  })
})

describe('POST /themes/:id/product-page-widget where the app may write theme files (exempt)', () => {
  it('adds the plans block to the product template once (one themeFilesUpsert), and the store shows it', async () => {
    const { dawn } = await themeIds(EXEMPT)
    const before = callCount(EXEMPT)
    const res = await call('POST', `/themes/${dawn}/product-page-widget`, undefined, EXEMPT)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      themeId: dawn,
      added: true,
      blockType: PLANS_BLOCK_TYPE,
      method: 'themeFiles',
      editorUrl: null,
      message: '商品ページにウィジェットを追加しました',
    })
    expect(calls(before, EXEMPT)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    const template = JSON.parse(file(dawn, 'templates/product.json', EXEMPT)!)
    expect(template.sections.main.block_order).toEqual(['teiki_subscription_plans'])
    expect(template.sections.main.blocks.teiki_subscription_plans.type).toBe(PLANS_BLOCK_TYPE)

    const again = callCount(EXEMPT)
    const second = await call('POST', `/themes/${dawn}/product-page-widget`, undefined, EXEMPT)
    expect(second.json()).toMatchObject({ added: false, message: 'ウィジェットはすでに追加されています' })
    expect(calls(again, EXEMPT)).toEqual(['theme', 'theme'])
    const support = await call(
      'GET',
      `/themes/${dawn}/templates/product/app-block-support`,
      undefined,
      EXEMPT,
    )
    expect(support.json()).toMatchObject({ blockAdded: true, widgetMethod: 'themeFiles' })
    // The emulated store renders the block from the template the app wrote.
    const page = await fetch(support.json().previewUrl).then((r) => r.text())
    expect(page).toContain('data-teiki-plans')
  })

  it('answers 422 with the platform’s words when it refuses the file itself', async () => {
    const { dawn } = await themeIds(EXEMPT)
    exempt.emulator.faults.failMutation('themeFilesUpsert', {
      code: 'THEME_FILES_CONFLICT',
      message: 'Theme is locked',
    })
    // A fresh template without the block, so the write is attempted.
    themes(EXEMPT)
      .find((t) => String(t.id) === dawn)!
      .files.find((f) => f.filename === 'templates/product.json')!.content =
      '{"sections":{"main":{"type":"main-product","blocks":{},"block_order":[]}},"order":["main"]}'
    const res = await call('POST', `/themes/${dawn}/product-page-widget`, undefined, EXEMPT)
    expect(res.statusCode).toBe(422)
    expect(res.json().error.code).toBe('PLATFORM_USER_ERROR')
    expect(res.json().error.message).toContain('Theme is locked')
    expect(hasJapanese(res.json().error.message)).toBe(true)
    expect(file(dawn, 'templates/product.json', EXEMPT)).not.toContain('teiki')
  })
})

describe('POST /themes/:id/product-page-widget where the platform refuses theme-file writes (the default)', () => {
  const deniedAt = async (domain: string) =>
    (
      await env.pool.query<{ theme_files_denied_at: Date | null }>(
        'select theme_files_denied_at from shops where id = $1',
        [env.shopIds[domain]],
      )
    ).rows[0]!.theme_files_denied_at

  it('tries the write once, then opens the theme editor at the block and says why; the editor’s 保存 adds it', async () => {
    const { dawn } = await themeIds()
    const template = file(dawn, 'templates/product.json')
    const before = callCount()
    const res = await call('POST', `/themes/${dawn}/product-page-widget`)
    expect(res.statusCode, res.body).toBe(200)
    const editorUrl = `${env.url}/admin/themes/${dawn}/editor?template=product&addAppBlockId=${TEST_API_KEY}/subscription-plans&target=mainSection`
    expect(res.json()).toEqual({
      themeId: dawn,
      added: false,
      blockType: PLANS_BLOCK_TYPE,
      method: 'themeEditor',
      editorUrl,
      message: expect.stringContaining('Shopify がこのアプリにテーマファイルの書き込みを許可していないため'),
    })
    // Refused (ACCESS_DENIED): nothing written, the refusal remembered.
    expect(calls(before)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    expect(file(dawn, 'templates/product.json')).toBe(template)
    expect(await deniedAt(DOMAIN)).not.toBeNull()

    // The screen now says which way and why, and the next click asks nothing of the platform.
    const support = (await call('GET', `/themes/${dawn}/templates/product/app-block-support`)).json()
    expect(support).toMatchObject({ widgetMethod: 'themeEditor', blockAdded: false, editorUrl })
    expect(support.widgetMethodMessage).toContain('「ウィジェットを追加」を押すとテーマエディタが開きます')
    const again = callCount()
    expect((await call('POST', `/themes/${dawn}/product-page-widget`)).json()).toMatchObject({
      method: 'themeEditor',
      editorUrl,
    })
    expect(calls(again)).toEqual(['theme', 'theme'])

    // The merchant saves in the (emulated) theme editor: the block is in the template.
    const opened = await fetch(editorUrl).then((r) => r.text())
    expect(opened).toContain('アプリブロック「subscription-plans」を商品ページのメインセクションに追加します')
    await fetch(editorUrl, { method: 'POST' })
    const after = (await call('GET', `/themes/${dawn}/templates/product/app-block-support`)).json()
    expect(after.blockAdded).toBe(true)
  })

  it('tries the write again once the refusal is a week old (an exemption can come later)', async () => {
    const { dawn } = await themeIds(OTHER)
    await env.pool.query(`update shops set theme_files_denied_at = now() - interval '8 days' where id = $1`, [
      env.shopIds[OTHER],
    ])
    const before = callCount(OTHER)
    const res = await call('POST', `/themes/${dawn}/product-page-widget`, undefined, OTHER)
    expect(res.json().method).toBe('themeEditor')
    expect(calls(before, OTHER)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    expect((await deniedAt(OTHER))!.getTime()).toBeGreaterThan(Date.now() - 60_000)
  })

  it('refuses a theme whose product page cannot hold app blocks (409 in Japanese), writing nothing', async () => {
    const { debut } = await themeIds()
    const before = callCount()
    const res = await call('POST', `/themes/${debut}/product-page-widget`)
    expect(res.statusCode).toBe(409)
    expect(res.json().error.message).toContain('JSONテンプレートではないため')
    expect(calls(before)).toEqual(['theme'])
  })

  it('answers 404 for another shop’s theme, writing nothing', async () => {
    const { dawn } = await themeIds(OTHER)
    const before = callCount()
    const res = await call('POST', `/themes/${dawn}/product-page-widget`)
    expect(res.statusCode).toBe(404)
    expect(calls(before)).toEqual(['theme'])
    expect(calls(before, OTHER)).toEqual([])
  })
})

describe('PUT /add-theme-section/:themeId', () => {
  const body = {
    sectionName: 'teiki-banner',
    content: '<p>定期便</p>\n{% schema %}{"name":"Teiki"}{% endschema %}',
    userTimeStamp: '20261125093000',
  }

  it('writes the section and places it after the main section, keyed by the 14-digit timestamp (exempt app)', async () => {
    const { dawn } = await themeIds(EXEMPT)
    const before = callCount(EXEMPT)
    const res = await call('PUT', `/add-theme-section/${dawn}`, body, EXEMPT)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      themeId: dawn,
      sectionFile: 'sections/teiki-banner.liquid',
      sectionKey: 'teiki_banner_20261125093000',
    })
    expect(calls(before, EXEMPT)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    expect(file(dawn, 'sections/teiki-banner.liquid', EXEMPT)).toBe(body.content)
    expect(JSON.parse(file(dawn, 'templates/product.json', EXEMPT)!).order).toEqual([
      'main',
      'teiki_banner_20261125093000',
    ])
  })

  it('answers 403 in Japanese where the platform refuses theme-file writes, writing nothing', async () => {
    const { dawn } = await themeIds()
    const template = file(dawn, 'templates/product.json')
    const res = await call('PUT', `/add-theme-section/${dawn}`, body)
    expect(res.statusCode).toBe(403)
    expect(res.json().error).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringContaining('テーマエディタの「セクションを追加」から'),
    })
    expect(file(dawn, 'sections/teiki-banner.liquid')).toBeUndefined()
    expect(file(dawn, 'templates/product.json')).toBe(template)
  })

  it.each([
    [{ ...body, userTimeStamp: '2026112509300' }, 'userTimeStampは14桁の日時'],
    [{ ...body, userTimeStamp: '20261131093000' }, 'userTimeStampは実在する日時を14桁'],
    [{ ...body, sectionName: '../layout/theme' }, 'セクション名は英小文字'],
    [{ ...body, content: 'a\u0000b' }, 'セクションの内容に使用できない制御文字'],
    [{ sectionName: 'x', content: 'y' }, 'userTimeStampを指定してください'],
  ])('refuses %j with 400 in Japanese, writing nothing', async (bad, message) => {
    const { dawn } = await themeIds(EXEMPT)
    const template = file(dawn, 'templates/product.json', EXEMPT)
    const before = callCount(EXEMPT)
    const res = await call('PUT', `/add-theme-section/${dawn}`, bad, EXEMPT)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toContain(message)
    expect(calls(before, EXEMPT).filter((c) => c === 'themeFilesUpsert')).toEqual([])
    expect(file(dawn, 'templates/product.json', EXEMPT)).toBe(template)
  })

  it('answers 422 when the platform refuses the file, 404 for another shop’s theme, 409 for a vintage theme', async () => {
    const { dawn, debut } = await themeIds(EXEMPT)
    exempt.emulator.faults.failMutation('themeFilesUpsert', {
      code: 'FILE_VALIDATION_ERROR',
      message: 'Liquid syntax error',
    })
    const refused = await call(
      'PUT',
      `/add-theme-section/${dawn}`,
      { ...body, userTimeStamp: '20261125100000' },
      EXEMPT,
    )
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error.message).toContain('Liquid syntax error')
    const theirs = await themeIds(OTHER)
    expect((await call('PUT', `/add-theme-section/${theirs.dawn}`, body)).statusCode).toBe(404)
    expect((await call('PUT', `/add-theme-section/${debut}`, body, EXEMPT)).statusCode).toBe(409)
  })
})

describe('GET and DELETE /script-tags', () => {
  /** A tag an earlier version of the app created (a shop has none the app did not create). */
  async function createTag(domain: string) {
    const res = await envOf(domain).emulator.graphql(domain, {
      query: `mutation($src: URL!) { scriptTagCreate(input: { src: $src }) { scriptTag { id } } }`,
      variables: { src: `https://cdn.example.jp/${domain}/widget.js` },
    })
    expect(res.errors).toBeUndefined()
  }

  it('a shop starts with none: the list is empty', async () => {
    const res = await call('GET', '/script-tags', undefined, EXEMPT)
    expect(res.statusCode).toBe(200)
    expect(ZScriptTagList.parse(res.json()).scriptTags).toEqual([])
  })

  it('lists the app’s script tags and deletes one (one scriptTagDelete)', async () => {
    await createTag(DOMAIN)
    const list = ZScriptTagList.parse((await call('GET', '/script-tags')).json()).scriptTags
    expect(list).toEqual([
      expect.objectContaining({
        src: `https://cdn.example.jp/${DOMAIN}/widget.js`,
        displayScope: 'ONLINE_STORE',
      }),
    ])
    const before = callCount()
    const res = await call('DELETE', `/script-tags/${list[0]!.id}`)
    expect(res.statusCode).toBe(204)
    expect(calls(before)).toEqual(['scriptTags', 'scriptTagDelete'])
    expect(ZScriptTagList.parse((await call('GET', '/script-tags')).json()).scriptTags).toEqual([])
    // Deleted already: not found.
    expect((await call('DELETE', `/script-tags/${list[0]!.id}`)).statusCode).toBe(404)
  })

  it('answers 404 for another shop’s script tag and leaves it, asking no change of the platform', async () => {
    await createTag(OTHER)
    const theirs = ZScriptTagList.parse(
      (await call('GET', '/script-tags', undefined, OTHER)).json(),
    ).scriptTags
    const before = callCount()
    const res = await call('DELETE', `/script-tags/${theirs[0]!.id}`)
    expect(calls(before)).toEqual(['scriptTags'])
    expect(res.statusCode).toBe(404)
    expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: 'スクリプトタグが見つかりません' })
    expect(
      ZScriptTagList.parse((await call('GET', '/script-tags', undefined, OTHER)).json()).scriptTags,
    ).toHaveLength(1)
  })

  it('refuses a malformed id with 400 in Japanese, and the platform’s other refusals are 422', async () => {
    const before = callCount()
    const bad = await call('DELETE', '/script-tags/12x')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.message).toContain('スクリプトタグIDは数字で指定してください')
    expect(calls(before)).toEqual([])
    const theirs = ZScriptTagList.parse(
      (await call('GET', '/script-tags', undefined, OTHER)).json(),
    ).scriptTags
    env.emulator.faults.failMutation('scriptTagDelete', { message: 'Access denied for this script tag' })
    const refused = await call('DELETE', `/script-tags/${theirs[0]!.id}`, undefined, OTHER)
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error.message).toContain('Access denied for this script tag')
  })
})
