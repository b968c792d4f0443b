/**
 * The settings kept as JSON text (spec §3 "Settings"): what each must hold, checked with a
 * message that points at the error (line and column of a syntax error, the entry and field of
 * a wrong value), in Japanese.
 */

/** Where `offset` falls in `text`: 1-based line and column. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  return { line, column: offset - before.lastIndexOf('\n') }
}

/**
 * Where a JSON text stops being JSON (the offset of the first character that cannot continue
 * it), or null when it is valid. JSON.parse's messages do not always carry a position (Node 20
 * names the token but not where it is), so the settings screen finds it itself.
 */
export function jsonErrorOffset(text: string): number | null {
  const scanner = new JsonScanner(text)
  try {
    scanner.value()
    scanner.ws()
    if (scanner.i < text.length) throw scanner.i
    return null
  } catch (at) {
    return typeof at === 'number' ? Math.min(at, text.length) : 0
  }
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/

/** A JSON grammar walk that throws the offset where the text stops being JSON. */
class JsonScanner {
  i = 0
  constructor(private readonly text: string) {}

  ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++
  }

  private expect(ch: string): void {
    if (this.text[this.i] !== ch) throw this.i
    this.i++
  }

  private literal(word: string): void {
    for (const ch of word) this.expect(ch)
  }

  private string(): void {
    this.expect('"')
    while (this.i < this.text.length && this.text[this.i] !== '"') {
      if (this.text.charCodeAt(this.i) < 0x20) throw this.i
      if (this.text[this.i] === '\\') {
        this.i++
        const esc = this.text[this.i] ?? ''
        if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.i + 1, this.i + 5))) this.i += 4
        else if (esc === '' || !'"\\/bfnrt'.includes(esc)) throw this.i
      }
      this.i++
    }
    this.expect('"')
  }

  private members(close: '}' | ']'): void {
    this.i++
    this.ws()
    if (this.text[this.i] === close) {
      this.i++
      return
    }
    for (;;) {
      if (close === '}') {
        this.ws()
        this.string()
        this.ws()
        this.expect(':')
      }
      this.value()
      this.ws()
      if (this.text[this.i] !== ',') break
      this.i++
    }
    this.expect(close)
  }

  value(): void {
    this.ws()
    const ch = this.text[this.i]
    if (ch === '{') this.members('}')
    else if (ch === '[') this.members(']')
    else if (ch === '"') this.string()
    else if (ch === 't') this.literal('true')
    else if (ch === 'f') this.literal('false')
    else if (ch === 'n') this.literal('null')
    else {
      const m = NUMBER.exec(this.text.slice(this.i))
      if (!m) throw this.i
      this.i += m[0].length
    }
  }
}

/** JSON.parse, or the problem: `2行目 13文字目付近` where the text stops being JSON. */
export function parseJsonText(text: string, label: string): { value: unknown } | { problem: string } {
  const offset = jsonErrorOffset(text)
  if (offset === null) return { value: JSON.parse(text) }
  const where =
    offset >= text.length
      ? '末尾（閉じ括弧や値が足りません）'
      : (() => {
          const at = lineColumn(text, offset)
          return `${at.line}行目 ${at.column}文字目付近`
        })()
  return { problem: `${label}のJSONが正しくありません（${where}）。JSONの形式で入力してください` }
}

type Field = { name: string; max: number; required: boolean }

/** An array of objects whose fields are strings: `[{"key":"…","value":"…"}]`. */
function entriesProblem(value: unknown, label: string, fields: Field[], maxEntries: number): string | null {
  if (!Array.isArray(value)) return `${label}は配列（[ ... ]）で入力してください`
  if (value.length > maxEntries) return `${label}は${maxEntries}件以内にしてください`
  for (const [i, entry] of value.entries()) {
    const at = `${label}の${i + 1}件目`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return `${at}は {"${fields[0]!.name}": "…"} の形のオブジェクトで入力してください`
    }
    const record = entry as Record<string, unknown>
    const unknown = Object.keys(record).find((k) => !fields.some((f) => f.name === k))
    if (unknown !== undefined) {
      return `${at}の "${unknown}" は使えない項目です（使える項目: ${fields.map((f) => `"${f.name}"`).join('、')}）`
    }
    for (const f of fields) {
      const v = record[f.name]
      if (v === undefined) {
        if (f.required) return `${at}に "${f.name}" がありません`
        continue
      }
      if (typeof v !== 'string') return `${at}の "${f.name}" は文字列で入力してください`
      if (f.required && v.trim() === '') return `${at}の "${f.name}" が空です`
      if (v.length > f.max) return `${at}の "${f.name}" は${f.max}文字以内にしてください`
    }
  }
  return null
}

/**
 * The note attribute keys the app writes on every renewal's order itself (お届け予定日, the
 * slot's carrier code, 定期回数, 出荷SKU: delivery/order-attributes.ts); a merchant's fixed
 * attribute may not take one.
 */
export const APP_ORDER_ATTRIBUTE_KEYS: readonly string[] = [
  'お届け予定日',
  '配送時間帯コード',
  '定期回数',
  '出荷SKU',
]

/** Note attributes added to subscription orders: `[{"key":"定期便","value":"あり"}]`. */
export function noteAttributeProblem(text: string): string | null {
  const parsed = parseJsonText(text, '注文メモ属性')
  if ('problem' in parsed) return parsed.problem
  const reserved = Array.isArray(parsed.value)
    ? parsed.value.findIndex((e) =>
        APP_ORDER_ATTRIBUTE_KEYS.includes((e as { key?: unknown } | null)?.key as string),
      )
    : -1
  if (reserved >= 0) {
    const key = (parsed.value as Array<{ key: string }>)[reserved]!.key
    return `注文メモ属性の${reserved + 1}件目の "key"（${key}）はアプリが付ける項目のため使えません`
  }
  return entriesProblem(
    parsed.value,
    '注文メモ属性',
    [
      { name: 'key', max: 100, required: true },
      { name: 'value', max: 500, required: false },
    ],
    50,
  )
}

/** Which orders an SKU conversion acts on: `1` (the first), `2-` (the second on), `1-3`. */
const CYCLES = /^([1-9]\d{0,3})(-([1-9]\d{0,3})?)?$/

/** Whether the `cycles` of a conversion (absent: every order) covers order number `cycle`. */
export function cyclesCover(cycles: string | undefined, cycle: number): boolean {
  if (cycles === undefined) return true
  const m = CYCLES.exec(cycles)
  if (!m) return false
  const from = Number(m[1])
  const to = m[2] === undefined ? from : m[3] === undefined ? Number.POSITIVE_INFINITY : Number(m[3])
  return cycle >= from && cycle <= to
}

/**
 * SKU conversions: `[{"from":"GRANOLA-500","to":"GRANOLA-500-FIRST+LEAFLET","cycles":"1"}]`:
 * an order's line of SKU `from` ships as `to` (several SKUs joined by `+`), on the orders
 * `cycles` names (absent: every order). One `from` appears once for any order number.
 */
export function skuConversionsProblem(text: string): string | null {
  const parsed = parseJsonText(text, 'SKU変換')
  if ('problem' in parsed) return parsed.problem
  const problem = entriesProblem(
    parsed.value,
    'SKU変換',
    [
      { name: 'from', max: 255, required: true },
      { name: 'to', max: 255, required: true },
      { name: 'cycles', max: 9, required: false },
    ],
    500,
  )
  if (problem) return problem
  const entries = parsed.value as SkuConversion[]
  for (const [i, entry] of entries.entries()) {
    if (entry.cycles !== undefined && !CYCLES.exec(entry.cycles))
      return `SKU変換の${i + 1}件目の "cycles" は 1（初回）、2-（2回目以降）、1-3 のように回数で入力してください`
    if (entry.to.split('+').some((sku) => sku.trim() === ''))
      return `SKU変換の${i + 1}件目の "to" に空のSKUがあります（複数のSKUは + でつなぎます）`
    const first = entries.findIndex(
      (other, j) => j < i && other.from === entry.from && cyclesOverlap(other, entry),
    )
    if (first >= 0) return `SKU変換の${i + 1}件目の "from"（${entry.from}）は${first + 1}件目と重複しています`
  }
  return null
}

export type SkuConversion = { from: string; to: string; cycles?: string }

/** Whether two conversions' `cycles` share an order number. */
function cyclesOverlap(a: SkuConversion, b: SkuConversion): boolean {
  const range = (c: SkuConversion): [number, number] => {
    const m = c.cycles === undefined ? null : CYCLES.exec(c.cycles)
    if (!m) return [1, Number.POSITIVE_INFINITY]
    const from = Number(m[1])
    return [from, m[2] === undefined ? from : m[3] === undefined ? Number.POSITIVE_INFINITY : Number(m[3])]
  }
  const [a1, a2] = range(a)
  const [b1, b2] = range(b)
  return a1 <= b2 && b1 <= a2
}

/** The note attributes of valid settings text ([] for text that does not pass noteAttributeProblem). */
export function parseNoteAttributes(text: string): Array<{ key: string; value: string }> {
  if (noteAttributeProblem(text) !== null) return []
  return (JSON.parse(text) as Array<{ key: string; value?: string }>).map((e) => ({
    key: e.key,
    value: e.value ?? '',
  }))
}

/** The SKU conversions of valid settings text ([] for text that does not pass skuConversionsProblem). */
export function parseSkuConversions(text: string): SkuConversion[] {
  if (skuConversionsProblem(text) !== null) return []
  return JSON.parse(text) as SkuConversion[]
}
