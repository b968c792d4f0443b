// What every subscriber's page of a shop shares (its settings and lists, service.ts
// `ShopContext`), kept per process for a few seconds, as the shop row is (http/auth.ts): a
// subscriber's page is read far more often than a merchant changes these, and a change shows
// within the TTL — at once in this process for the saves that forget it. The changes a
// subscriber makes never read it: actions.ts checks each against the settings as saved.

const TTL_MS = 3_000
const contexts = new Map<string, { until: number; context: Promise<unknown> }>()

/** The shop's context, loaded by `load` when absent or older than the TTL (a failed load is not kept). */
export function cachedContext<T>(shopId: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now()
  const hit = contexts.get(shopId)
  if (hit && hit.until > now) return hit.context as Promise<T>
  const context = load()
  if (contexts.size > 10_000) contexts.clear()
  contexts.set(shopId, { until: now + TTL_MS, context })
  context.catch(() => contexts.delete(shopId))
  return context
}

/** Forgets the shop's page context (after the merchant saved something it holds). */
export function forgetShopContext(shopId: string): void {
  contexts.delete(shopId)
}
