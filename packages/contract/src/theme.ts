import { z } from 'zod'
import { ZPlatformId, ZText } from './primitives.ts'

/** The app block's and the theme editor's words for where a block sits (spec §7 "Theme"). */

/** One of the shop's themes (GET /app-admin/themes). */
export const ZTheme = z.object({
  id: z.string(),
  name: z.string(),
  /** MAIN is the published theme; UNPUBLISHED, DEVELOPMENT, … the others. */
  role: z.string(),
})
export type Theme = z.infer<typeof ZTheme>

export const ZThemeList = z.object({ themes: z.array(ZTheme) })
export type ThemeList = z.infer<typeof ZThemeList>

export const ZThemeParams = z.object({ id: ZPlatformId('テーマID') })

/** A template name as themes name them: `product`, `product.gift`, `collection`. */
const TEMPLATE = /^[a-z][a-z0-9_-]{0,39}(\.[a-z0-9_-]{1,40})?$/

export const ZTemplateParams = z.object({
  id: ZPlatformId('テーマID'),
  t: z
    .string({ error: 'テンプレート名を指定してください' })
    .regex(TEMPLATE, 'テンプレート名は product や product.gift のように英小文字で指定してください'),
})

/** Why a template cannot hold app blocks (null when it can). */
export const ZAppBlockProblem = z.enum(['NOT_JSON_TEMPLATE', 'NO_MAIN_SECTION', 'NO_APP_BLOCKS'])

/**
 * How ウィジェットを追加 adds the block: by writing the theme's template (`themeFiles`, only
 * where the platform lets the app write theme files: an exemption few apps get) or by opening
 * the theme editor at the block, where the merchant saves it (`themeEditor`).
 */
export const ZWidgetMethod = z.enum(['themeFiles', 'themeEditor'])
export type WidgetMethod = z.infer<typeof ZWidgetMethod>

/** GET /app-admin/themes/:id/templates/:t/app-block-support. */
export const ZAppBlockSupport = z.object({
  themeId: z.string(),
  themeName: z.string(),
  template: z.string(),
  supported: z.boolean(),
  problem: ZAppBlockProblem.nullable(),
  /** What the merchant reads: supported, or why not and what to do. */
  message: z.string(),
  /** Teiki's plans block is already in the template's main section. */
  blockAdded: z.boolean(),
  /** Opens the theme editor on this template with the block being added to the main section. */
  editorUrl: z.string().nullable(),
  /** A product page of the store showing this theme (a product sold on a plan), null when none is published. */
  previewUrl: z.string().nullable(),
  /** How ウィジェットを追加 adds the block for this shop now. */
  widgetMethod: ZWidgetMethod,
  /** Which way and why, as the merchant reads it. */
  widgetMethodMessage: z.string(),
})
export type AppBlockSupport = z.infer<typeof ZAppBlockSupport>

/** POST /app-admin/themes/:id/product-page-widget. */
export const ZProductPageWidgetResponse = z.object({
  themeId: z.string(),
  /** True when the app wrote the block into the template; false when it was there already or the editor adds it. */
  added: z.boolean(),
  blockType: z.string(),
  /** `themeEditor`: the platform does not let the app write theme files; open `editorUrl`. */
  method: ZWidgetMethod,
  /** The theme editor at the block (method `themeEditor`), null otherwise or when unknown. */
  editorUrl: z.string().nullable(),
  /** What happened, as the merchant reads it. */
  message: z.string(),
})
export type ProductPageWidgetResponse = z.infer<typeof ZProductPageWidgetResponse>

/** PUT /app-admin/add-theme-section/:themeId. */
export const ZAddThemeSectionParams = z.object({ themeId: ZPlatformId('テーマID') })

export const ZAddThemeSectionBody = z.object({
  /** The section's file name without `.liquid` (`sections/<sectionName>.liquid`). */
  sectionName: z
    .string({ error: 'セクション名を指定してください' })
    .regex(/^[a-z0-9][a-z0-9_-]{0,59}$/, 'セクション名は英小文字・数字・-・_ の60文字以内で指定してください'),
  content: ZText('セクションの内容', { max: 200_000, multiline: true }).min(
    1,
    'セクションの内容を入力してください',
  ),
  /** 14-digit local timestamp YYYYMMDDhhmmss (spec §9): names the section in the template. */
  userTimeStamp: z
    .string({ error: 'userTimeStampを指定してください' })
    .regex(/^\d{14}$/, 'userTimeStampは14桁の日時（例: 20261125093000）で指定してください'),
})
export type AddThemeSectionBody = z.input<typeof ZAddThemeSectionBody>

export const ZAddThemeSectionResponse = z.object({
  themeId: z.string(),
  /** `sections/<sectionName>.liquid`. */
  sectionFile: z.string(),
  /** The section's key in templates/product.json (`<sectionName>_<userTimeStamp>`). */
  sectionKey: z.string(),
})
export type AddThemeSectionResponse = z.infer<typeof ZAddThemeSectionResponse>

/** GET /app-admin/script-tags. */
export const ZScriptTag = z.object({
  id: z.string(),
  src: z.string(),
  displayScope: z.string(),
  createdAt: z.string(),
})
export type ScriptTag = z.infer<typeof ZScriptTag>

export const ZScriptTagList = z.object({ scriptTags: z.array(ZScriptTag) })
export type ScriptTagList = z.infer<typeof ZScriptTagList>

export const ZScriptTagParams = z.object({ id: ZPlatformId('スクリプトタグID') })
