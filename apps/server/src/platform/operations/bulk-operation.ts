import type { AdminClient } from '../admin-client.ts'

/**
 * One bulk operation by id (`node`): polled until it finishes. `currentBulkOperation` would
 * also do, but it is deprecated in 2025-04 and answers for whatever ran last, not for ours.
 */
export const BULK_OPERATION = /* GraphQL */ `
  query BulkOperation($id: ID!) {
    node(id: $id) {
      ... on BulkOperation {
        id
        status
        errorCode
        createdAt
        completedAt
        objectCount
        rootObjectCount
        fileSize
        url
        partialDataUrl
      }
    }
  }
`

export type BulkOperationStatus =
  | 'CANCELED'
  | 'CANCELING'
  | 'COMPLETED'
  | 'CREATED'
  | 'EXPIRED'
  | 'FAILED'
  | 'RUNNING'

export type PlatformBulkOperation = {
  id: string
  status: BulkOperationStatus
  errorCode: string | null
  createdAt: string
  completedAt: string | null
  /** UnsignedInt64: a string on the wire. */
  objectCount: string
  rootObjectCount: string
  fileSize: string | null
  url: string | null
  partialDataUrl: string | null
}

export async function fetchBulkOperation(
  client: AdminClient,
  id: string,
): Promise<PlatformBulkOperation | null> {
  const data = await client.request<{ node: PlatformBulkOperation | null }>('BulkOperation', BULK_OPERATION, {
    id,
  })
  return data.node
}
