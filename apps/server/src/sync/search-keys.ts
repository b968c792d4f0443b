/**
 * Keys the mirror stores so customer searches are index prefix scans (see migration 0001).
 * Writers (sync, webhooks) and readers (search) must derive them the same way.
 */

/** Family + given name, NFKC, lower-cased, spaces removed: '山田 太郎' and '山田太郎' match. */
export function nameKey(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u3000]+/g, '')
}

/** Digits of a phone number reversed, so "ends with" becomes "starts with". */
export function phoneRev(phone: string | null | undefined): string | null {
  if (!phone) return null
  const digits = phone.replace(/\D+/g, '')
  return digits ? [...digits].reverse().join('') : null
}

/**
 * The half-open range [from, to) of strings that start with `prefix`, compared byte-wise
 * (text_pattern_ops' ~>=~ and ~<~, which is code point order for UTF-8). Unlike
 * `like 'prefix%'`, a range on parameters keeps its index scan in a generic (prepared)
 * plan, and user input needs no wildcard escaping.
 */
export function prefixRange(prefix: string): { from: string; to: string } {
  const chars = [...prefix]
  const last = chars.pop()
  if (last === undefined) throw new Error('empty prefix')
  return { from: prefix, to: chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1) }
}
