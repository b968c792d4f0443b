/**
 * Whether a theme's JSON template can hold app blocks, and the template with one added
 * (shopify.dev, "Verify theme support"): the template must be JSON, its main section (the one
 * whose type starts with `main`, as Online Store 2.0 themes name it) must accept blocks of type
 * `@app` in its `{% schema %}`. Pure: the caller reads the files from the platform.
 */

export type AppBlockSupport =
  | { supported: true; mainSectionKey: string; mainSectionType: string }
  | { supported: false; reason: 'NOT_JSON_TEMPLATE' | 'NO_MAIN_SECTION' | 'NO_APP_BLOCKS' }

type TemplateSection = {
  type?: unknown
  blocks?: Record<string, { type?: unknown; settings?: unknown; disabled?: unknown }>
  block_order?: unknown
}
type Template = { sections?: Record<string, TemplateSection>; order?: unknown }

/** The template parsed, or null when it is not a JSON template (absent, Liquid, or broken JSON). */
export function parseTemplate(text: string | null): Template | null {
  if (text === null) return null
  try {
    // Theme JSON files may start with a /* comment */ header, which the platform allows.
    const parsed: unknown = JSON.parse(text.replace(/^\s*\/\*[\s\S]*?\*\//, ''))
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Template) : null
  } catch {
    return null
  }
}

/** The key and type of the template's main section, or null when it has none. */
export function mainSection(template: Template): { key: string; type: string } | null {
  for (const [key, section] of Object.entries(template.sections ?? {})) {
    if (typeof section?.type === 'string' && section.type.startsWith('main'))
      return { key, type: section.type }
  }
  return null
}

/** Whether a section's `{% schema %}` accepts blocks of type `@app`. */
export function sectionAcceptsAppBlocks(liquid: string | null): boolean {
  if (liquid === null) return false
  const m = /{%-?\s*schema\s*-?%}([\s\S]*?){%-?\s*endschema\s*-?%}/.exec(liquid)
  if (!m) return false
  try {
    const schema = JSON.parse(m[1]!) as { blocks?: Array<{ type?: unknown }> }
    return Array.isArray(schema.blocks) && schema.blocks.some((b) => b?.type === '@app')
  } catch {
    return false
  }
}

/** The verdict for a template and (when it has a main section) that section's Liquid. */
export function appBlockSupport(templateText: string | null, sectionLiquid: string | null): AppBlockSupport {
  const template = parseTemplate(templateText)
  if (!template) return { supported: false, reason: 'NOT_JSON_TEMPLATE' }
  const main = mainSection(template)
  if (!main) return { supported: false, reason: 'NO_MAIN_SECTION' }
  if (!sectionAcceptsAppBlocks(sectionLiquid)) return { supported: false, reason: 'NO_APP_BLOCKS' }
  return { supported: true, mainSectionKey: main.key, mainSectionType: main.type }
}

/** Whether the main section already holds a block of `blockType` (enabled or not). */
export function hasAppBlock(templateText: string, blockType: string): boolean {
  const template = parseTemplate(templateText)
  const main = template && mainSection(template)
  if (!template || !main) return false
  const blocks = template.sections?.[main.key]?.blocks ?? {}
  return Object.values(blocks).some((b) => b?.type === blockType)
}

/**
 * The template with an app block of `blockType` added to the main section under `blockKey`, at
 * the end of its `block_order`; null when the template has no main section. Other content is
 * kept as it was.
 */
export function withAppBlock(templateText: string, blockType: string, blockKey: string): string | null {
  const template = parseTemplate(templateText)
  const main = template && mainSection(template)
  if (!template || !main) return null
  const section = template.sections![main.key]!
  const blocks = { ...(section.blocks ?? {}), [blockKey]: { type: blockType, settings: {} } }
  const order = Array.isArray(section.block_order) ? section.block_order.filter((k) => k !== blockKey) : []
  const next = {
    ...template,
    sections: { ...template.sections, [main.key]: { ...section, blocks, block_order: [...order, blockKey] } },
  }
  return `${JSON.stringify(next, null, 2)}\n`
}

/**
 * The template with a section of type `sectionType` added under `sectionKey` right after the
 * main section (at the end when there is none); null when the template is not JSON.
 */
export function withSection(templateText: string, sectionType: string, sectionKey: string): string | null {
  const template = parseTemplate(templateText)
  if (!template) return null
  const sections = { ...(template.sections ?? {}), [sectionKey]: { type: sectionType, settings: {} } }
  const order = (
    Array.isArray(template.order) ? template.order : Object.keys(template.sections ?? {})
  ).filter((k) => k !== sectionKey)
  const main = mainSection(template)
  const at = main ? order.indexOf(main.key) + 1 : order.length
  const next = { ...template, sections, order: [...order.slice(0, at), sectionKey, ...order.slice(at)] }
  return `${JSON.stringify(next, null, 2)}\n`
}

/**
 * True for a 14-digit local timestamp `YYYYMMDDhhmmss` naming a real moment of the calendar
 * (spec section 9: how the theme section's `userTimeStamp` is sent), e.g. 20261125093000.
 */
export function isLocalTimestamp14(text: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text)
  if (!m) return false
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  if (y < 2000 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return false
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate()
}
