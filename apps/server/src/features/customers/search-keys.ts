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

/** Escapes LIKE wildcards so user input matches literally. */
export function likePrefix(value: string): string {
  return `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
