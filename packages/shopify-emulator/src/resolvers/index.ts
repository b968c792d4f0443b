import type { ResolverMap } from '../attach-resolvers.ts'
import { mutationMaps } from '../mutations/index.ts'
import { customerResolvers } from './customers.ts'
import { deliveryProfileResolvers } from './delivery-profiles.ts'
import { draftResolvers } from './drafts.ts'
import { linePricingResolvers } from './line-pricing.ts'
import { nodeResolvers } from './node.ts'
import { onlineStoreResolvers } from './online-store.ts'
import { orderResolvers } from './orders.ts'
import { productResolvers } from './products.ts'
import { scriptTagResolvers } from './script-tags.ts'
import { sellingPlanResolvers } from './selling-plans.ts'
import { shopResolvers } from './shop.ts'
import { contractResolvers } from './subscription-contracts.ts'

/** Merges per-noun maps; a later map may add fields to a type but never silently replace one. */
export function mergeResolvers(...maps: ResolverMap[]): ResolverMap {
  const out: ResolverMap = {}
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map)) {
      const target = out[type] ?? {}
      out[type] = target
      for (const [name, fn] of Object.entries(fields)) {
        if (target[name]) throw new Error(`two resolvers for ${type}.${name}`)
        target[name] = fn
      }
    }
  }
  return out
}

export const queryResolvers = mergeResolvers(
  shopResolvers,
  customerResolvers,
  contractResolvers,
  sellingPlanResolvers,
  productResolvers,
  orderResolvers,
  nodeResolvers,
  draftResolvers,
  linePricingResolvers,
  onlineStoreResolvers,
  scriptTagResolvers,
  deliveryProfileResolvers,
  ...mutationMaps,
)
