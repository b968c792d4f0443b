import type {
  AddThemeSectionBody,
  AddThemeSectionResponse,
  AppBlockSupport,
  ProductPageWidgetResponse,
  ScriptTagList,
  ThemeList,
  WidgetMethod,
} from '@teiki/contract'
import {
  appBlockSupport,
  hasAppBlock,
  isLocalTimestamp14,
  mainSection,
  parseTemplate,
  withAppBlock,
  withSection,
} from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import { PlatformUserError } from '../../platform/errors.ts'
import { idFromGid, toGid } from '../../platform/gid.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { deleteScriptTag } from '../../platform/operations/script-tag-delete.ts'
import { fetchScriptTags } from '../../platform/operations/script-tags.ts'
import { fetchStorefrontProduct } from '../../platform/operations/storefront-product.ts'
import { fetchThemeFiles, type ThemeWithFiles } from '../../platform/operations/theme-files.ts'
import { upsertThemeFiles } from '../../platform/operations/theme-files-upsert.ts'
import { fetchThemes } from '../../platform/operations/themes.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import { platformAccess, recordThemeFilesDenied, type ShopRow } from '../../platform/shops-repo.ts'
import { PLANS_BLOCK_KEY, PLANS_BLOCK_TYPE, themeEditorUrl } from './extension.ts'
import { SECTION_DENIED, supportMessage, widgetMethodMessage } from './messages.ts'
import { isThemeFilesDenied, widgetMethod } from './widget.ts'

/**
 * Spec §7 "Theme" and the script tags: everything is the platform's (themes, their files, script
 * tags), read and written through the Admin API; the app keeps nothing of it, so this feature has
 * no repository. Platform refusals are 422, a theme or tag the shop does not have is 404.
 */
export type ThemeServiceOptions = {
  db: DbClient
  clients: ShopClients
  adminOrigin: (shop: string) => string
  apiKey?: string
}

const THEME_NOT_FOUND = 'テーマが見つかりません'
const templateFile = (t: string) => `templates/${t}.json`

const client = (opts: ThemeServiceOptions, shop: ShopRow) => opts.clients.clientFor(shop)
/** The theme editor opened on `template` with the block being added; null without the app's client id. */
const editorUrlOf = (opts: ThemeServiceOptions, shop: ShopRow, themeId: string, template: string) =>
  opts.apiKey ? themeEditorUrl(opts.adminOrigin(shop.domain), themeId, template, opts.apiKey) : null
/** How ウィジェットを追加 adds the block for the shop now (widget.ts). */
async function currentMethod(opts: ThemeServiceOptions, shop: ShopRow) {
  return widgetMethod((await platformAccess(opts.db, shop.id)).themeFilesDeniedAt, new Date())
}

/** The theme with its template and the template's main section file; 404 when the shop has no such theme. */
async function readTemplate(
  opts: ThemeServiceOptions,
  shop: ShopRow,
  themeId: string,
  template: string,
  label: string,
) {
  let theme: ThemeWithFiles | null
  let section: string | null = null
  try {
    theme = await fetchThemeFiles(client(opts, shop), toGid('OnlineStoreTheme', themeId), [
      templateFile(template),
    ])
    if (!theme) throw notFound(THEME_NOT_FOUND)
    const text = theme.files.get(templateFile(template)) ?? null
    const parsed = parseTemplate(text)
    const main = parsed && mainSection(parsed)
    if (main) {
      const file = `sections/${main.type}.liquid`
      section = (await fetchThemeFiles(client(opts, shop), theme.id, [file]))?.files.get(file) ?? null
    }
    return { theme, text, section }
  } catch (error) {
    throw platformError(error, label)
  }
}

export async function listThemes(opts: ThemeServiceOptions, shop: ShopRow): Promise<ThemeList> {
  try {
    const themes = await fetchThemes(client(opts, shop))
    return { themes: themes.map((t) => ({ id: idFromGid(t.id), name: t.name, role: t.role })) }
  } catch (error) {
    throw platformError(error, 'テーマの取得')
  }
}

/** The store's product page for this theme: a product sold on a plan, previewing an unpublished theme. */
async function previewUrl(opts: ThemeServiceOptions, shop: ShopRow, theme: ThemeWithFiles, themeId: string) {
  try {
    const product = await fetchStorefrontProduct(client(opts, shop))
    if (!product?.onlineStoreUrl) return null
    const url = new URL(product.onlineStoreUrl)
    if (theme.role !== 'MAIN') url.searchParams.set('preview_theme_id', themeId)
    return url.toString()
  } catch (error) {
    throw platformError(error, 'ストアの確認')
  }
}

export async function getAppBlockSupport(
  opts: ThemeServiceOptions,
  shop: ShopRow,
  themeId: string,
  template: string,
): Promise<AppBlockSupport> {
  const { theme, text, section } = await readTemplate(opts, shop, themeId, template, 'テーマの確認')
  const verdict = appBlockSupport(text, section)
  const editorUrl = editorUrlOf(opts, shop, themeId, template)
  const method = await currentMethod(opts, shop)
  return {
    themeId,
    themeName: theme.name,
    template,
    supported: verdict.supported,
    problem: verdict.supported ? null : verdict.reason,
    blockAdded: text !== null && hasAppBlock(text, PLANS_BLOCK_TYPE),
    message: supportMessage(template, verdict, section),
    editorUrl,
    previewUrl: await previewUrl(opts, shop, theme, themeId),
    widgetMethod: method,
    widgetMethodMessage: widgetMethodMessage(method, editorUrl !== null),
  }
}

export async function addProductPageWidget(
  opts: ThemeServiceOptions,
  shop: ShopRow,
  themeId: string,
): Promise<ProductPageWidgetResponse> {
  const label = 'ウィジェットの追加'
  const { theme, text, section } = await readTemplate(opts, shop, themeId, 'product', label)
  const verdict = appBlockSupport(text, section)
  if (!verdict.supported || text === null)
    throw new AppError('CONFLICT', supportMessage('product', verdict, section))
  const editorUrl = editorUrlOf(opts, shop, themeId, 'product')
  const answer = (method: WidgetMethod, added: boolean, message: string) => ({
    themeId,
    added,
    blockType: PLANS_BLOCK_TYPE,
    method,
    editorUrl: method === 'themeEditor' ? editorUrl : null,
    message,
  })
  const byEditor = () => answer('themeEditor', false, widgetMethodMessage('themeEditor', editorUrl !== null))
  const method = await currentMethod(opts, shop)
  if (hasAppBlock(text, PLANS_BLOCK_TYPE))
    return answer(method, false, 'ウィジェットはすでに追加されています')
  if (method === 'themeEditor') return byEditor()
  const next = withAppBlock(text, PLANS_BLOCK_TYPE, PLANS_BLOCK_KEY)!
  try {
    await upsertThemeFiles(client(opts, shop), theme.id, [
      { filename: templateFile('product'), content: next },
    ])
  } catch (error) {
    if (!isThemeFilesDenied(error)) throw platformError(error, label)
    // No theme-file access (the exemption few apps get): the theme editor adds it.
    await recordThemeFilesDenied(opts.db, shop.id, new Date())
    return byEditor()
  }
  await recordThemeFilesDenied(opts.db, shop.id, null)
  return answer('themeFiles', true, '商品ページにウィジェットを追加しました')
}

export async function addThemeSection(
  opts: ThemeServiceOptions,
  shop: ShopRow,
  themeId: string,
  body: AddThemeSectionBody,
): Promise<AddThemeSectionResponse> {
  if (!isLocalTimestamp14(body.userTimeStamp)) {
    throw new AppError(
      'INVALID_INPUT',
      'userTimeStampは実在する日時を14桁（例: 20261125093000）で指定してください',
    )
  }
  const label = 'セクションの追加'
  const { theme, text } = await readTemplate(opts, shop, themeId, 'product', label)
  const sectionKey = `${body.sectionName.replaceAll('-', '_')}_${body.userTimeStamp}`
  const next = text === null ? null : withSection(text, body.sectionName, sectionKey)
  if (next === null) {
    throw new AppError(
      'CONFLICT',
      'このテーマの商品ページはJSONテンプレートではないため、セクションを追加できません（Online Store 2.0 のテーマをお使いください）。',
    )
  }
  const sectionFile = `sections/${body.sectionName}.liquid`
  try {
    await upsertThemeFiles(client(opts, shop), theme.id, [
      { filename: sectionFile, content: body.content },
      { filename: templateFile('product'), content: next },
    ])
  } catch (error) {
    if (!isThemeFilesDenied(error)) throw platformError(error, label)
    await recordThemeFilesDenied(opts.db, shop.id, new Date())
    throw new AppError('FORBIDDEN', SECTION_DENIED, { cause: error })
  }
  await recordThemeFilesDenied(opts.db, shop.id, null)
  return { themeId, sectionFile, sectionKey }
}

export async function listScriptTags(opts: ThemeServiceOptions, shop: ShopRow): Promise<ScriptTagList> {
  try {
    const tags = await fetchScriptTags(client(opts, shop))
    return { scriptTags: tags.map((t) => ({ ...t, id: idFromGid(t.id) })) }
  } catch (error) {
    throw platformError(error, 'スクリプトタグの取得')
  }
}

export async function removeScriptTag(opts: ThemeServiceOptions, shop: ShopRow, id: string): Promise<void> {
  // The app's tags are few (one page): an id that is not among them (another shop's, a typo) is
  // 404 before anything is asked to change, as a contract not in the mirror is.
  const { scriptTags } = await listScriptTags(opts, shop)
  if (!scriptTags.some((t) => t.id === id)) throw notFound('スクリプトタグが見つかりません')
  try {
    await deleteScriptTag(client(opts, shop), toGid('ScriptTag', id))
  } catch (error) {
    // The platform names no other shop's (or app's) tag: "does not exist" on the id.
    if (error instanceof PlatformUserError && error.userErrors.some((e) => e.field?.includes('id'))) {
      throw notFound('スクリプトタグが見つかりません')
    }
    throw platformError(error, 'スクリプトタグの削除')
  }
}

/** The use-cases bound to one app's clients and platform options (what the routes call). */
export function createThemeService(opts: ThemeServiceOptions) {
  return {
    listThemes: (shop: ShopRow) => listThemes(opts, shop),
    appBlockSupport: (shop: ShopRow, themeId: string, template: string) =>
      getAppBlockSupport(opts, shop, themeId, template),
    addProductPageWidget: (shop: ShopRow, themeId: string) => addProductPageWidget(opts, shop, themeId),
    addThemeSection: (shop: ShopRow, themeId: string, body: AddThemeSectionBody) =>
      addThemeSection(opts, shop, themeId, body),
    listScriptTags: (shop: ShopRow) => listScriptTags(opts, shop),
    deleteScriptTag: (shop: ShopRow, id: string) => removeScriptTag(opts, shop, id),
  }
}

export type ThemeService = ReturnType<typeof createThemeService>
