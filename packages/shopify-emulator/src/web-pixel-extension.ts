import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

/**
 * The app's deployed web pixel extension, as the platform knows it after `shopify app deploy`:
 * its handle and the settings definition of its `shopify.extension.toml`, against which
 * `webPixelCreate` / `webPixelUpdate` validate the settings they are given (shopify.dev, "Build
 * web pixels", step 2). The emulator reads the repository's own extension folder, as the
 * storefront reads the theme extension (storefront/liquid.ts): one definition, so a field or a
 * validation changed in the toml is enforced here at once, with no fixture copy to drift.
 */

/** The repository's pixel extension (`extensions/teiki-pixel`). */
export const DEFAULT_PIXEL_EXTENSION_DIR = resolve(import.meta.dirname, '../../../extensions/teiki-pixel')

const TEXT_TYPES = new Set(['single_line_text_field', 'multi_line_text_field'])
const NUMBER_TYPES = new Set(['number_integer', 'number_decimal'])

export type PixelSettingField = {
  key: string
  type: string
  min: number | null
  max: number | null
  regex: string | null
  choices: string[] | null
}

export type PixelExtension = {
  /** The extension's folder (its code runs in the emulated store: storefront/web-pixels.ts). */
  dir: string
  handle: string
  fields: PixelSettingField[]
  /** Why the definition cannot be used (the platform's INVALID_SETTINGS_DEFINITION), or null. */
  definitionProblem: string | null
}

type TomlValue = string | number | boolean | Array<Record<string, TomlValue>>

/** One value of the TOML subset extension files use: strings, numbers, booleans, one-line arrays of inline tables. */
function parseValue(text: string): TomlValue {
  const t = text.trim()
  if (t.startsWith('"')) return JSON.parse(t) as string
  if (t === 'true' || t === 'false') return t === 'true'
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t)
  if (t.startsWith('[') && t.endsWith(']')) {
    const tables = [...t.slice(1, -1).matchAll(/\{([^}]*)\}/g)]
    return tables.map((m) => {
      const entries = m[1]!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).filter((e) => e.trim() !== '')
      return Object.fromEntries(
        entries.map((e) => {
          const at = e.indexOf('=')
          return [e.slice(0, at).trim(), parseValue(e.slice(at + 1))]
        }),
      )
    })
  }
  throw new Error(`unsupported TOML value: ${t}`)
}

/**
 * `[table]` → its `key = value` lines, top level under ''. An array of tables (`[[name]]`, as a
 * function extension's `[[extensions]]`) is keyed `name` for its first table, `name#2` for the next.
 */
export function parseTomlTables(toml: string): Map<string, Record<string, TomlValue>> {
  const tables = new Map<string, Record<string, TomlValue>>([['', {}]])
  let current = tables.get('')!
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/^\s+/, '')
    if (line === '' || line.startsWith('#')) continue
    const header =
      /^\[(\[)([A-Za-z0-9_.-]+)\]\]\s*(#.*)?$/.exec(line) ?? /^\[()([A-Za-z0-9_.-]+)\]\s*(#.*)?$/.exec(line)
    if (header) {
      current = {}
      let name = header[2]!
      for (let n = 2; header[1] && tables.has(name); n++) name = `${header[2]}#${n}`
      tables.set(name, current)
      continue
    }
    const at = line.indexOf('=')
    if (at < 0) throw new Error(`unsupported TOML line: ${line}`)
    current[line.slice(0, at).trim()] = parseValue(line.slice(at + 1).replace(/\s#[^"]*$/, ''))
  }
  return tables
}

function fieldOf(key: string, table: Record<string, TomlValue>): PixelSettingField {
  const validations = Array.isArray(table.validations) ? table.validations : []
  const rule = (name: string) => validations.find((v) => v.name === name)?.value
  const num = (v: TomlValue | undefined) => (v === undefined ? null : Number(v))
  const choices = rule('choices')
  return {
    key,
    type: String(table.type ?? ''),
    min: num(rule('min')),
    max: num(rule('max')),
    regex: rule('regex') === undefined ? null : String(rule('regex')),
    choices: typeof choices === 'string' ? (JSON.parse(choices) as string[]) : null,
  }
}

/** Reads `shopify.extension.toml` of a web pixel extension folder. */
export function loadPixelExtension(dir: string = DEFAULT_PIXEL_EXTENSION_DIR): PixelExtension {
  const tables = parseTomlTables(readFileSync(join(dir, 'shopify.extension.toml'), 'utf8'))
  const top = tables.get('')!
  if (top.type !== 'web_pixel_extension') throw new Error(`${dir} is not a web pixel extension`)
  const fields = [...tables]
    .filter(([name]) => name.startsWith('settings.fields.'))
    .map(([name, table]) => fieldOf(name.slice('settings.fields.'.length), table))
  const bad = fields.find((f) => !TEXT_TYPES.has(f.type) && !NUMBER_TYPES.has(f.type) && f.type !== 'boolean')
  const settingsType = tables.get('settings')?.type
  const definitionProblem =
    fields.length > 0 && settingsType !== 'object'
      ? 'settings.type must be "object"'
      : bad
        ? `settings field ${bad.key} has an unsupported type ${bad.type}`
        : null
  return { dir, handle: String(top.name ?? ''), fields, definitionProblem }
}

export type SettingsProblem = { code: 'INVALID_CONFIGURATION_JSON' | 'INVALID_SETTINGS'; message: string }

/** The settings as an object: a JSON object, or a string holding one (both are accepted). */
export function settingsObject(
  input: unknown,
): { ok: true; settings: Record<string, unknown> } | ({ ok: false } & SettingsProblem) {
  let value = input
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input)
    } catch {
      return {
        ok: false,
        code: 'INVALID_CONFIGURATION_JSON',
        message: 'The provided settings is not a valid JSON.',
      }
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      code: 'INVALID_CONFIGURATION_JSON',
      message: 'The provided settings is not a JSON object.',
    }
  return { ok: true, settings: value as Record<string, unknown> }
}

function valueProblem(f: PixelSettingField, value: unknown): string | null {
  if (TEXT_TYPES.has(f.type)) {
    if (typeof value !== 'string') return 'must be a string'
    if (f.type === 'single_line_text_field' && /[\r\n]/.test(value)) return 'must be a single line'
    if (f.min !== null && value.length < f.min) return `is too short (minimum is ${f.min} characters)`
    if (f.max !== null && value.length > f.max) return `is too long (maximum is ${f.max} characters)`
    if (f.regex !== null && !new RegExp(f.regex).test(value)) return 'does not match the pattern'
    if (f.choices !== null && !f.choices.includes(value)) return 'is not one of the choices'
    return null
  }
  if (NUMBER_TYPES.has(f.type)) {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
    if (typeof n !== 'number' || !Number.isFinite(n)) return 'must be a number'
    if (f.type === 'number_integer' && !Number.isInteger(n)) return 'must be an integer'
    if (f.min !== null && n < f.min) return `must be greater than or equal to ${f.min}`
    if (f.max !== null && n > f.max) return `must be less than or equal to ${f.max}`
    return null
  }
  return typeof value === 'boolean' ? null : 'must be a boolean'
}

/** Whether `settings` match the definition: every field present and valid, nothing else. */
export function settingsProblem(
  ext: PixelExtension,
  settings: Record<string, unknown>,
): SettingsProblem | null {
  const invalid = (message: string): SettingsProblem => ({ code: 'INVALID_SETTINGS', message })
  const known = new Set(ext.fields.map((f) => f.key))
  const extra = Object.keys(settings).find((k) => !known.has(k))
  if (extra !== undefined)
    return invalid(`Settings key ${extra} is not in the extension's settings definition.`)
  for (const f of ext.fields) {
    if (!(f.key in settings) || settings[f.key] === null) return invalid(`Settings ${f.key} is required.`)
    const problem = valueProblem(f, settings[f.key])
    if (problem) return invalid(`Settings ${f.key} ${problem}.`)
  }
  return null
}
