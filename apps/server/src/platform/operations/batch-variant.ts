import type { AdminClient } from '../admin-client.ts'
import { queryPath } from './requests.ts'

/**
 * The variant a batch swaps to, once per batch: whether it can be sold now and which selling
 * plan groups sell it (a contract's line on a plan outside them is skipped). 100 groups is far
 * more than a shop puts one variant in; the cost is about 103 points.
 */
export const BATCH_VARIANT = /* GraphQL */ `
  query BatchVariant($id: ID!) {
    productVariant(id: $id) {
      id
      title
      availableForSale
      inventoryQuantity
      product {
        title
      }
      sellingPlanGroups(first: 100) {
        nodes {
          id
        }
      }
    }
  }
`

export type PlatformBatchVariant = {
  id: string
  title: string
  availableForSale: boolean
  inventoryQuantity: number | null
  product: { title: string }
  sellingPlanGroups: { nodes: Array<{ id: string }> }
}

/** The variant, or null when the platform does not have it. */
export function fetchBatchVariant(client: AdminClient, id: string) {
  return queryPath<PlatformBatchVariant>(client, BATCH_VARIANT, { id }, ['productVariant'])
}
