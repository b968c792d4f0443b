/**
 * In-app links. Only `shop` and `secret` travel from page to page (spec section 2): every
 * other query parameter of the current page (host, filters, …) is dropped. Pure, so the
 * rules are unit-tested without a browser.
 */

export const CARRIED_PARAMS = ['shop', 'secret'] as const

export type CarriedParams = Partial<Record<(typeof CARRIED_PARAMS)[number], string | null>>

/**
 * Builds the URL of an in-app page.
 *
 * @param target path of the page, optionally with its own query and hash (`/plans?tab=1#x`)
 * @param currentSearch the current page's query string (`?shop=…&secret=…&host=…`)
 * @param fallback values used when the current query lacks them (the stored session)
 */
export function buildAppHref(target: string, currentSearch: string, fallback: CarriedParams = {}): string {
  const hashIndex = target.indexOf('#')
  const hash = hashIndex >= 0 ? target.slice(hashIndex) : ''
  const withoutHash = hashIndex >= 0 ? target.slice(0, hashIndex) : target
  const queryIndex = withoutHash.indexOf('?')
  const pathname = queryIndex >= 0 ? withoutHash.slice(0, queryIndex) : withoutHash
  const targetQuery = new URLSearchParams(queryIndex >= 0 ? withoutHash.slice(queryIndex + 1) : '')

  const current = new URLSearchParams(currentSearch)
  const query = new URLSearchParams()
  for (const key of CARRIED_PARAMS) {
    const value = current.get(key) || fallback[key]
    if (value) query.set(key, value)
  }
  // The target's own parameters win over carried ones of the same name.
  for (const [key, value] of targetQuery) query.set(key, value)

  const search = query.toString()
  return `${pathname || '/'}${search ? `?${search}` : ''}${hash}`
}

/** True for absolute URLs (another origin) that must not go through the router. */
export function isExternalUrl(url: string): boolean {
  return /^[a-z][a-z\d+\-.]*:/i.test(url) || url.startsWith('//')
}
