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

/** JSON.parse, or the problem: `3行目 12文字目付近` from the parser's position. */
export function parseJsonText(text: string, label: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const position = /position (\d+)/.exec(message)?.[1]
    const lc = /line (\d+) column (\d+)/.exec(message)
    let where = ''
    if (lc) where = `${lc[1]}行目 ${lc[2]}文字目付近`
    else if (position !== undefined) {
      const at = lineColumn(text, Number(position))
      where = `${at.line}行目 ${at.column}文字目付近`
    } else where = '末尾'
    return { problem: `${label}のJSONが正しくありません（${where}）。JSONの形式で入力してください` }
  }
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
