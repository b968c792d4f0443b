import type { AdminClient } from '../admin-client.ts'

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

export async function fetchBatchVariant(
  client: AdminClient,
  id: string,
): Promise<PlatformBatchVariant | null> {
  const data = await client.request<{ productVariant: PlatformBatchVariant | null }>(
    'BatchVariant',
    BATCH_VARIANT,
    {
      id,
    },
  )
  return data.productVariant
}
