import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

export const BULK_OPERATION_RUN_QUERY = /* GraphQL */ `
  mutation BulkOperationRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation { id status }
      userErrors { code field message }
    }
  }
`

type Payload = {
  bulkOperationRunQuery: {
    bulkOperation: { id: string; status: string } | null
    userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
  } | null
}

/**
 * Starts a bulk query; the operation's id. Refusals (another bulk query of this app still
 * running: `OPERATION_IN_PROGRESS`; an invalid query: `INVALID`) are PlatformUserError.
 */
export async function runBulkQuery(client: AdminClient, query: string): Promise<string> {
  const data = await client.request<Payload>('BulkOperationRunQuery', BULK_OPERATION_RUN_QUERY, { query })
  const payload = assertNoUserErrors('bulkOperationRunQuery', data.bulkOperationRunQuery)
  if (!payload.bulkOperation) throw new Error('bulkOperationRunQuery: no operation returned')
  return payload.bulkOperation.id
}
