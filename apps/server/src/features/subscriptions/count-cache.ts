/**
 * Recent search totals, so a merchant paging through one list (or several tabs asking the same)
 * has it counted once rather than on every page: a count reads up to 10,000 index entries, ten
 * times the page's own cost (ADR 0004). A total may be `ttlMs` old; lists that fit on one page
 * never come here (their page is their count). Identical counts in flight share one query.
 */
export type CountCache = {
  /** The cached count for `key`, or `compute()`'s (shared by callers while it runs). */
  get(key: string, compute: () => Promise<number>): Promise<number>
}

export function createCountCache(
  opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): CountCache {
  const ttlMs = opts.ttlMs ?? 15_000
  const maxEntries = opts.maxEntries ?? 5_000
  const now = opts.now ?? Date.now
  const entries = new Map<string, { value: Promise<number>; at: number }>()

  return {
    get(key, compute) {
      const hit = entries.get(key)
      if (hit && now() - hit.at < ttlMs) return hit.value
      if (hit) entries.delete(key)
      // Oldest first (insertion order): dropping the first entries keeps the map bounded.
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string)
      const value = compute()
      entries.set(key, { value, at: now() })
      // A failed count is not remembered: the next page asks again.
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key)
      })
      return value
    },
  }
}
