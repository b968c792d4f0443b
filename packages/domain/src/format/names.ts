/** The name fields the platform gives for a customer; any of them may be missing. */
export type PersonName = { firstName?: string | null; lastName?: string | null; displayName?: string | null }

/**
 * A customer's name as a Japanese admin shows it: family name, a half-width space, given name
 * (`山田 太郎`). Latin names get the same order (`Smith John`) on purpose: guessing order from the
 * script would flip romanized Japanese names (`Yamada Taro`) and make one list mix two orders,
 * and Shopify's Japanese admin also puts the last name first. One part alone is used as is;
 * otherwise `displayName`, otherwise `''`. Blank parts count as missing.
 */
export function japaneseName(p: PersonName): string {
  const family = p.lastName?.trim() ?? ''
  const given = p.firstName?.trim() ?? ''
  const full = [family, given].filter((part) => part !== '').join(' ')
  return full || (p.displayName?.trim() ?? '')
}
