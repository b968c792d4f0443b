/** What the subscription search box asks for (spec §5). */
export type SearchInput =
  | { kind: 'all' }
  | { kind: 'variant'; variantId: string }
  | { kind: 'contract'; contractId: string }
  | { kind: 'customer'; mode: 'phone'; phone: string }
  | { kind: 'customer'; mode: 'any'; term: string }

const VARIANT_ID_LENGTH = 14
// After NFKC, full-width hyphens and the ideographic space are already ASCII; the others are
// what Japanese IMEs and copy-paste from web pages produce between phone-number groups.
const SEPARATED_DIGITS = /^[0-9]+(?:[\s\-\u2010-\u2015\u2212\u30fc()]+[0-9]+)+$/
const SEPARATORS = /[\s\-\u2010-\u2015\u2212\u30fc()]+/g
const CONTRACT_GID = /^gid:\/\/shopify\/SubscriptionContract\/([0-9]+)$/i
const VARIANT_GID = /^gid:\/\/shopify\/ProductVariant\/([0-9]+)$/i

/**
 * Classifies raw search-box text (spec §5). The input is NFKC-normalized (full-width digits and
 * letters become ASCII) and trimmed first. Decisions on cases the spec leaves open:
 *
 * | input                                   | result                                   |
 * |-----------------------------------------|------------------------------------------|
 * | `''`, whitespace only                    | all                                      |
 * | 14 digits, not starting with 0           | variant                                  |
 * | 14 digits starting with 0                | phone (leading 0 removed): platform ids never start with 0, so a leading 0 can only be a phone number |
 * | other digits starting with 0             | phone, one leading 0 removed (`0901234` -> `901234`) |
 * | `0` alone                                | any `'0'`: an empty phone search would match every customer |
 * | other digits (1-13 or 15+ digits)        | contract                                 |
 * | `090-1234-5678`, `090 1234 5678`, `(03)1234-5678` | phone `9012345678`: digit groups separated only by hyphens/dashes, spaces or parentheses count as one digit string when they start with 0 |
 * | separated digits not starting with 0    | any, as typed: ids are never written in groups, so this is free text |
 * | `gid://shopify/SubscriptionContract/123` | contract `123`                          |
 * | `gid://shopify/ProductVariant/456`       | variant `456` (any length: the gid says what it is) |
 * | `+81 90...`, e-mail, names, anything else | any, trimmed, original case kept        |
 */
export function classifySearchInput(raw: string): SearchInput {
  const text = raw.normalize('NFKC').trim()
  if (text === '') return { kind: 'all' }

  const contractGid = CONTRACT_GID.exec(text)
  if (contractGid?.[1]) return { kind: 'contract', contractId: contractGid[1] }
  const variantGid = VARIANT_GID.exec(text)
  if (variantGid?.[1]) return { kind: 'variant', variantId: variantGid[1] }

  if (/^[0-9]+$/.test(text)) return classifyDigits(text)
  if (SEPARATED_DIGITS.test(text)) {
    const digits = text.replace(SEPARATORS, '')
    if (digits.startsWith('0')) return classifyDigits(digits)
  }
  return { kind: 'customer', mode: 'any', term: text }
}

function classifyDigits(digits: string): SearchInput {
  if (digits.startsWith('0')) {
    // Shopify stores +81 numbers; dropping the trunk 0 lets `9012345678` match `+819012345678`.
    const phone = digits.slice(1)
    return phone === ''
      ? { kind: 'customer', mode: 'any', term: digits }
      : { kind: 'customer', mode: 'phone', phone }
  }
  if (digits.length === VARIANT_ID_LENGTH) return { kind: 'variant', variantId: digits }
  return { kind: 'contract', contractId: digits }
}
