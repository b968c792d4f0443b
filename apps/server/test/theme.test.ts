import { ZAppBlockSupport, ZErrorResponse, ZScriptTagList, ZThemeList } from '@teiki/contract'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PLANS_BLOCK_TYPE } from '../src/features/theme/extension.ts'
import { type EmulatedApp, startEmulatedApp } from './support/emulated-app.ts'
import { TEST_API_KEY } from './support/fixtures.ts'

// Spec §7 "Theme" and script tags, against the emulator: every path's success, bad input
// (400 in Japanese, nothing written), the platform's refusal (422), another shop's ids (404),
// and the Admin API calls each makes.

const stamp = `${process.pid}-${Date.now().toString(36)}`
const DOMAIN = `theme-${stamp}.myshopify.com`
const OTHER = `theme-other-${stamp}.myshopify.com`
const SECRET = 'theme-secret'

let env: EmulatedApp
beforeAll(async () => {
  env = await startEmulatedApp({
    shops: [
      { domain: DOMAIN, contracts: 3 },
      { domain: OTHER, contracts: 3 },
    ],
    secret: SECRET,
  })
})
afterAll(() => env.close())
beforeEach(() => env.emulator.faults.reset())

function call(method: string, path: string, body?: unknown, domain = DOMAIN) {
  return env.app.inject({
    method: method as 'GET',
    url: `/app-admin${path}${path.includes('?') ? '&' : '?'}shop=${domain}&secret=${SECRET}`,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}
const calls = (from: number, domain = DOMAIN) =>
  env.emulator.callLog
    .slice(from)
    .filter((c) => c.shop === domain)
    .map((c) => c.rootFields.join(','))
const themes = (domain = DOMAIN) => env.emulator.store.shop(domain)!.extra!.themes
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
    const before = env.emulator.callLog.length
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
    const before = env.emulator.callLog.length
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

describe('POST /themes/:id/product-page-widget', () => {
  it('adds the plans block to the product template once (one themeFilesUpsert), and the store shows it', async () => {
    const { dawn } = await themeIds()
    const before = env.emulator.callLog.length
    const res = await call('POST', `/themes/${dawn}/product-page-widget`)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ themeId: dawn, added: true, blockType: PLANS_BLOCK_TYPE })
    expect(calls(before)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    const template = JSON.parse(file(dawn, 'templates/product.json')!)
    expect(template.sections.main.block_order).toEqual(['teiki_subscription_plans'])
    expect(template.sections.main.blocks.teiki_subscription_plans.type).toBe(PLANS_BLOCK_TYPE)

    const again = env.emulator.callLog.length
    const second = await call('POST', `/themes/${dawn}/product-page-widget`)
    expect(second.json()).toMatchObject({ added: false })
    expect(calls(again)).toEqual(['theme', 'theme'])
    const support = await call('GET', `/themes/${dawn}/templates/product/app-block-support`)
    expect(support.json().blockAdded).toBe(true)
    // The emulated store renders the block from the template the app wrote.
    const page = await fetch(support.json().previewUrl).then((r) => r.text())
    expect(page).toContain('data-teiki-plans')
  })

  it('refuses a theme whose product page cannot hold app blocks (409 in Japanese), writing nothing', async () => {
    const { debut } = await themeIds()
    const before = env.emulator.callLog.length
    const res = await call('POST', `/themes/${debut}/product-page-widget`)
    expect(res.statusCode).toBe(409)
    expect(res.json().error.message).toContain('JSONテンプレートではないため')
    expect(calls(before)).toEqual(['theme'])
  })

  it('answers 422 with the platform’s words when it refuses the file', async () => {
    const { dawn } = await themeIds(OTHER)
    env.emulator.faults.failMutation('themeFilesUpsert', {
      code: 'ACCESS_DENIED',
      message: 'Theme is locked',
    })
    const res = await call('POST', `/themes/${dawn}/product-page-widget`, undefined, OTHER)
    expect(res.statusCode).toBe(422)
    expect(res.json().error.code).toBe('PLATFORM_USER_ERROR')
    expect(res.json().error.message).toContain('Theme is locked')
    expect(hasJapanese(res.json().error.message)).toBe(true)
    expect(file(dawn, 'templates/product.json', OTHER)).not.toContain('teiki')
  })

  it('answers 404 for another shop’s theme, writing nothing', async () => {
    const { dawn } = await themeIds(OTHER)
    const before = env.emulator.callLog.length
    const res = await call('POST', `/themes/${dawn}/product-page-widget`)
    expect(res.statusCode).toBe(404)
    expect(calls(before)).toEqual(['theme'])
    expect(calls(before, OTHER)).toEqual([])
  })
})

describe('the theme editor deep link', () => {
  it('opens the (emulated) editor adding the block to the main section; 保存 writes it', async () => {
    const { dawn } = await themeIds(OTHER)
    const support = (
      await call('GET', `/themes/${dawn}/templates/product/app-block-support`, undefined, OTHER)
    ).json()
    expect(support.blockAdded).toBe(false)
    const opened = await fetch(support.editorUrl).then((r) => r.text())
    expect(opened).toContain('アプリブロック「subscription-plans」を商品ページのメインセクションに追加します')
    await fetch(support.editorUrl, { method: 'POST' })
    const after = (
      await call('GET', `/themes/${dawn}/templates/product/app-block-support`, undefined, OTHER)
    ).json()
    expect(after.blockAdded).toBe(true)
  })
})

describe('PUT /add-theme-section/:themeId', () => {
  const body = {
    sectionName: 'teiki-banner',
    content: '<p>定期便</p>\n{% schema %}{"name":"Teiki"}{% endschema %}',
    userTimeStamp: '20261125093000',
  }

  it('writes the section and places it after the main section, keyed by the 14-digit timestamp', async () => {
    const { dawn } = await themeIds()
    const before = env.emulator.callLog.length
    const res = await call('PUT', `/add-theme-section/${dawn}`, body)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      themeId: dawn,
      sectionFile: 'sections/teiki-banner.liquid',
      sectionKey: 'teiki_banner_20261125093000',
    })
    expect(calls(before)).toEqual(['theme', 'theme', 'themeFilesUpsert'])
    expect(file(dawn, 'sections/teiki-banner.liquid')).toBe(body.content)
    expect(JSON.parse(file(dawn, 'templates/product.json')!).order).toEqual([
      'main',
      'teiki_banner_20261125093000',
    ])
  })

  it.each([
    [{ ...body, userTimeStamp: '2026112509300' }, 'userTimeStampは14桁の日時'],
    [{ ...body, userTimeStamp: '20261131093000' }, 'userTimeStampは実在する日時を14桁'],
    [{ ...body, sectionName: '../layout/theme' }, 'セクション名は英小文字'],
    [{ ...body, content: 'a\u0000b' }, 'セクションの内容に使用できない制御文字'],
    [{ sectionName: 'x', content: 'y' }, 'userTimeStampを指定してください'],
  ])('refuses %j with 400 in Japanese, writing nothing', async (bad, message) => {
    const { dawn } = await themeIds()
    const template = file(dawn, 'templates/product.json')
    const before = env.emulator.callLog.length
    const res = await call('PUT', `/add-theme-section/${dawn}`, bad)
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toContain(message)
    expect(calls(before).filter((c) => c === 'themeFilesUpsert')).toEqual([])
    expect(file(dawn, 'templates/product.json')).toBe(template)
  })

  it('answers 422 when the platform refuses, 404 for another shop’s theme, 409 for a vintage theme', async () => {
    const { dawn, debut } = await themeIds()
    env.emulator.faults.failMutation('themeFilesUpsert', {
      code: 'FILE_VALIDATION_ERROR',
      message: 'Liquid syntax error',
    })
    const refused = await call('PUT', `/add-theme-section/${dawn}`, {
      ...body,
      userTimeStamp: '20261125100000',
    })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error.message).toContain('Liquid syntax error')
    const theirs = await themeIds(OTHER)
    expect((await call('PUT', `/add-theme-section/${theirs.dawn}`, body)).statusCode).toBe(404)
    expect((await call('PUT', `/add-theme-section/${debut}`, body)).statusCode).toBe(409)
  })
})

describe('GET and DELETE /script-tags', () => {
  it('lists the app’s script tags and deletes one (one scriptTagDelete)', async () => {
    const list = ZScriptTagList.parse((await call('GET', '/script-tags')).json()).scriptTags
    expect(list).toEqual([
      expect.objectContaining({
        src: 'https://cdn.teiki.example/legacy/widget.js',
        displayScope: 'ONLINE_STORE',
      }),
    ])
    const before = env.emulator.callLog.length
    const res = await call('DELETE', `/script-tags/${list[0]!.id}`)
    expect(res.statusCode).toBe(204)
    expect(calls(before)).toEqual(['scriptTags', 'scriptTagDelete'])
    expect(ZScriptTagList.parse((await call('GET', '/script-tags')).json()).scriptTags).toEqual([])
    // Deleted already: not found.
    expect((await call('DELETE', `/script-tags/${list[0]!.id}`)).statusCode).toBe(404)
  })

  it('answers 404 for another shop’s script tag and leaves it, asking no change of the platform', async () => {
    const theirs = ZScriptTagList.parse(
      (await call('GET', '/script-tags', undefined, OTHER)).json(),
    ).scriptTags
    const before = env.emulator.callLog.length
    const res = await call('DELETE', `/script-tags/${theirs[0]!.id}`)
    expect(calls(before)).toEqual(['scriptTags'])
    expect(res.statusCode).toBe(404)
    expect(res.json().error).toEqual({ code: 'NOT_FOUND', message: 'スクリプトタグが見つかりません' })
    expect(
      ZScriptTagList.parse((await call('GET', '/script-tags', undefined, OTHER)).json()).scriptTags,
    ).toHaveLength(1)
  })

  it('refuses a malformed id with 400 in Japanese, and the platform’s other refusals are 422', async () => {
    const before = env.emulator.callLog.length
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
