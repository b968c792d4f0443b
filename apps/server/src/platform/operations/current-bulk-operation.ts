import type { AdminClient } from '../admin-client.ts'
import type { PlatformBulkOperation } from './bulk-operation.ts'

/**
 * The shop's latest bulk query operation (GET /bulk-query, spec §7). Deprecated in 2025-04 for
 * `bulkOperations`, which that version does not have yet; it answers for whatever this app ran
 * last (the sync's exports), which is what the merchant asks about.
 */
export const CURRENT_BULK_OPERATION = /* GraphQL */ `
  query CurrentBulkOperation {
    currentBulkOperation(type: QUERY) {
      id
      status
      errorCode
      createdAt
      completedAt
      objectCount
    }
  }
`

export type CurrentBulkOperation = Pick<
  PlatformBulkOperation,
  'id' | 'status' | 'errorCode' | 'createdAt' | 'completedAt' | 'objectCount'
>

export async function fetchCurrentBulkOperation(client: AdminClient): Promise<CurrentBulkOperation | null> {
  const data = await client.request<{ currentBulkOperation: CurrentBulkOperation | null }>(
    'CurrentBulkOperation',
    CURRENT_BULK_OPERATION,
    {},
  )
  return data.currentBulkOperation
}
