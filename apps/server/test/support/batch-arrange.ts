import type { Emulator } from '@teiki/shopify-emulator'

// Shared by the batch tests and bench/batch.ts (no test runner imports here).

/** What a swap test needs: a variant on `count` live contracts and another of its product to swap to. */
export type SwapArrangement = { from: number; to: number; contracts: number[]; planId: number }

/**
 * Puts variant `from` on the first line of `count` live contracts of the shop (on a plan of a
 * group that sells its product, and with `to`, the product's other variant, on none of them).
 */
export function arrangeSwap(emulator: Emulator, domain: string, count: number): SwapArrangement {
  const shop = emulator.store.shop(domain)!
  const group = shop.sellingPlanGroups.find((g) =>
    g.productIds.some((id) => shop.products.find((p) => p.id === id && p.variantIds.length >= 2)),
  )!
  const product = shop.products.find((p) => group.productIds.includes(p.id) && p.variantIds.length >= 2)!
  const [from, to] = product.variantIds as [number, number]
  const plan = group.sellingPlans[0]!
  const live = shop.contracts.filter((c) => c.status === 'ACTIVE' || c.status === 'PAUSED')
  const chosen = live.slice(0, count)
  // No other contract carries either variant: the batch's targets are exactly `chosen`.
  const other = shop.variants.find((v) => v.productId !== product.id)!
  for (const c of shop.contracts) {
    c.lines = c.lines.map((l) =>
      l.variantId === from || l.variantId === to
        ? { ...l, variantId: other.id, productId: other.productId }
        : l,
    )
  }
  for (const c of chosen) {
    const line = c.lines[0]!
    c.lines[0] = {
      ...line,
      productId: product.id,
      variantId: from,
      sellingPlanId: plan.id,
      title: product.title,
    }
  }
  return { from, to, contracts: chosen.map((c) => c.id), planId: plan.id }
}
