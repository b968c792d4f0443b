import pino, { type Logger } from 'pino'

/**
 * Text the platform accepts but PostgreSQL refuses: NUL (in text, and as `\u0000` in jsonb) and
 * lone UTF-16 surrogates (not UTF-8; jsonb refuses their `\udXXX` escapes). One such character
 * in a note or an address must not stop a shop's sync, so the mirror stores the text without it
 * and says so in the log (field and row, never the value).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /[\u0000\ud800-\udfff]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const NUL = /\u0000/g
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The text without NUL and lone surrogates (valid surrogate pairs stay). */
export function storableText(value: string): string {
  if (!UNSTORABLE.test(value)) return value
  return value.replace(NUL, '').replace(LONE_SURROGATE, '')
}

/**
 * `value` with every string (object keys included) made storable, and the paths that changed
 * pushed to `fields`. Unchanged values are returned as they are (no copy on the common path).
 */
export function storableDeep<T>(value: T, path: string, fields: string[]): T {
  if (typeof value === 'string') {
    const clean = storableText(value)
    if (clean !== value) fields.push(path)
    return clean as T
  }
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null
    value.forEach((item, i) => {
      const clean = storableDeep(item, `${path}[${i}]`, fields)
      if (clean !== item) {
        copy ??= [...value]
        copy[i] = clean
      }
    })
    return (copy ?? value) as T
  }
  let copy: Record<string, unknown> | null = null
  for (const [key, item] of Object.entries(value)) {
    const cleanKey = storableText(key)
    const where = path ? `${path}.${cleanKey}` : cleanKey
    if (cleanKey !== key) fields.push(`${where} (key)`)
    const clean = storableDeep(item, where, fields)
    if (clean !== item || cleanKey !== key) {
      copy ??= { ...(value as Record<string, unknown>) }
      if (cleanKey !== key) delete copy[key]
      copy[cleanKey] = clean
    }
  }
  return (copy ?? value) as T
}

export type StrippedText = { table: string; id: string; contractId: string | null; fields: string[] }

let log: Pick<Logger, 'warn'> = pino({ name: 'teiki-mirror', level: process.env.LOG_LEVEL ?? 'info' })

/** Where the warnings go (tests listen; the default is the process's JSON log on stdout). */
export function setMirrorTextLog(next: Pick<Logger, 'warn'>): Pick<Logger, 'warn'> {
  const previous = log
  log = next
  return previous
}

/**
 * The row as the mirror can store it. When something was stripped, one warning per row names
 * the table, the row, its contract and the fields; the write goes on with the cleaned row.
 */
export function storableRow<T extends object>(row: T, where: Omit<StrippedText, 'fields'>): T {
  const fields: string[] = []
  const clean = storableDeep(row, '', fields)
  if (fields.length > 0) {
    log.warn(
      { ...where, fields } satisfies StrippedText,
      'platform text stripped of characters PostgreSQL refuses',
    )
  }
  return clean
}
