import type { ShopState } from './records.ts'

/** Binary search: every record array is sorted by id because ids are handed out in increasing order. */
export function findById<T extends { id: number }>(items: readonly T[], id: number): T | undefined {
  let lo = 0
  let hi = items.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const item = items[mid]!
    if (item.id === id) return item
    if (item.id < id) lo = mid + 1
    else hi = mid - 1
  }
  return undefined
}

/** Hands out the next id for a GID type; ids only grow so arrays stay sorted. */
export function nextId(shop: ShopState, type: string, start = 1): number {
  const id = shop.nextIds[type] ?? start
  shop.nextIds[type] = id + 1
  return id
}

/** All emulated shops, keyed by myshopify domain, with the token -> shop lookup the HTTP layer needs. */
export class Store {
  readonly shops = new Map<string, ShopState>()
  private readonly tokens = new Map<string, string>()
  private readonly listeners: Array<() => void> = []

  add(shop: ShopState): void {
    this.shops.set(shop.info.myshopifyDomain, shop)
    this.tokens.set(shop.installation.accessToken, shop.info.myshopifyDomain)
  }

  /** Forgets an access token (uninstall); true if it was known. */
  revoke(token: string): boolean {
    return this.tokens.delete(token)
  }

  shop(domain: string): ShopState | undefined {
    return this.shops.get(domain)
  }

  shopByToken(token: string): ShopState | undefined {
    const domain = this.tokens.get(token)
    return domain === undefined ? undefined : this.shops.get(domain)
  }

  /** Mutations call this so persistence can schedule a save. */
  changed(): void {
    for (const listener of this.listeners) listener()
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener)
  }
}
