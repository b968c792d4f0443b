/**
 * Japanese phone numbers in the national format merchants write them in (`070-7781-2083`,
 * `03-1234-5678`, `0120-123-456`). The platform stores E.164 (`+817077812083`).
 */

// Prefixes whose grouping the number itself decides, longest first. Numbers are 0 plus 9 or 10
// digits; each entry is the group sizes.
const GROUPINGS: ReadonlyArray<readonly [prefix: string, length: number, groups: readonly number[]]> = [
  // Toll-free, navigation dial and the like: 4-3-3 (0800 has one digit more: 4-3-4).
  ['0120', 10, [4, 3, 3]],
  ['0800', 11, [4, 3, 4]],
  ['0570', 10, [4, 3, 3]],
  ['0990', 10, [4, 3, 3]],
  ['0180', 10, [4, 3, 3]],
  // Mobile, IP phones and M2M: 3-4-4.
  ['070', 11, [3, 4, 4]],
  ['080', 11, [3, 4, 4]],
  ['090', 11, [3, 4, 4]],
  ['050', 11, [3, 4, 4]],
  ['020', 11, [3, 4, 4]],
  // Tokyo and Osaka, the two 2-digit area codes: 2-4-4.
  ['03', 10, [2, 4, 4]],
  ['06', 10, [2, 4, 4]],
]

/** The digits of a number as national digits (`+81 70-…` and `0081…` become `070…`), or null. */
function nationalDigits(input: string): string | null {
  const compact = input.normalize('NFKC').replace(/[\s\-‐－ー−()（）.]/g, '')
  const international = /^(?:\+81|0081)/.exec(compact)
  // The trunk 0 written after the country code anyway (+81 090…) is a common slip: one 0 only.
  const digits = international ? `0${compact.slice(international[0].length).replace(/^0/, '')}` : compact
  return /^0\d{9,10}$/.test(digits) ? digits : null
}

function group(digits: string, sizes: readonly number[]): string {
  const parts: string[] = []
  let at = 0
  for (const size of sizes) {
    parts.push(digits.slice(at, at + size))
    at += size
  }
  return parts.join('-')
}

/**
 * A phone number in Japanese national format: `+817077812083` → `070-7781-2083`,
 * `+81312345678` → `03-1234-5678`, `0120123456` → `0120-123-456`. Other landlines are grouped
 * 3-3-4 (`045-123-4567`), the grouping of the 3-digit area codes that most numbers have; a
 * 4- or 5-digit area code (`0466-…`) then shows the right digits with its hyphens one place
 * off, because telling them apart needs the national area-code table. Anything that is not a
 * Japanese number (another country, letters, too few digits) is returned as given, trimmed.
 */
export function formatPhoneJa(input: string): string {
  const digits = nationalDigits(input)
  if (digits === null) return input.trim()
  for (const [prefix, length, groups] of GROUPINGS) {
    if (digits.startsWith(prefix)) return digits.length === length ? group(digits, groups) : input.trim()
  }
  return digits.length === 10 ? group(digits, [3, 3, 4]) : input.trim()
}
