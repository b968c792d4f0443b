import type { ShopInfo } from './records.ts'

type Bucket = { restoreRate: number; bucketSize: number }

/**
 * GraphQL Admin API limits by shop plan (shopify.dev, "rate limits"): the bucket holds 20 s of
 * restore. Plan names are the ones `shop.plan.displayName` shows.
 */
export function planBucket(plan: ShopInfo['plan']): Bucket {
  const name = plan.displayName.toLowerCase()
  if (name.includes('enterprise') || name.includes('commerce components'))
    return { restoreRate: 2000, bucketSize: 40_000 }
  if (plan.shopifyPlus || name.includes('plus')) return { restoreRate: 1000, bucketSize: 20_000 }
  if (name.includes('advanced')) return { restoreRate: 200, bucketSize: 4000 }
  return { restoreRate: 100, bucketSize: 2000 }
}

/** A partner development store shows a development plan ("Developer Preview", "Development"). */
export function planInfo(displayName: string): ShopInfo['plan'] {
  return {
    displayName,
    partnerDevelopment: /develop/i.test(displayName),
    shopifyPlus: displayName === 'Shopify Plus',
  }
}
