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

/** Note attributes added to subscription orders: `[{"key":"ギフト包装","value":"希望する"}]`. */
export function noteAttributeProblem(text: string): string | null {
  const parsed = parseJsonText(text, '注文メモ属性')
  if ('problem' in parsed) return parsed.problem
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

/** SKU conversions: `[{"from":"OLD-SKU","to":"NEW-SKU"}]`, each `from` once. */
export function skuConversionsProblem(text: string): string | null {
  const parsed = parseJsonText(text, 'SKU変換')
  if ('problem' in parsed) return parsed.problem
  const problem = entriesProblem(
    parsed.value,
    'SKU変換',
    [
      { name: 'from', max: 255, required: true },
      { name: 'to', max: 255, required: true },
    ],
    500,
  )
  if (problem) return problem
  const seen = new Map<string, number>()
  for (const [i, entry] of (parsed.value as Array<{ from: string }>).entries()) {
    const first = seen.get(entry.from)
    if (first !== undefined)
      return `SKU変換の${i + 1}件目の "from"（${entry.from}）は${first}件目と重複しています`
    seen.set(entry.from, i + 1)
  }
  return null
}

/** The thank-you page script arrives JSON-encoded (a JSON string). */
export function thankPageScriptProblem(text: string): string | null {
  const parsed = parseJsonText(text, 'サンクスページのスクリプト')
  if ('problem' in parsed) return parsed.problem
  if (typeof parsed.value !== 'string') {
    return 'サンクスページのスクリプトはJSONの文字列（"..." で囲んだ形）で送ってください'
  }
  return null
}
