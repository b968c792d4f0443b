import { type AdminClient, assertNoUserErrors } from '../platform/admin-client.ts'
import {
  BILLING_ATTEMPT_FIELDS,
  type PlatformBillingAttempt,
} from '../platform/operations/subscription-billing-attempt.ts'
import type { ContractStatusResult } from '../platform/operations/subscription-contract-status.ts'

// The billing engine's own Admin API documents (the shared ones live in platform/operations).
// test/billing-engine.test.ts validates both against the real 2025-04 schema.

export const SUBSCRIPTION_CONTRACT_EXPIRE = /* GraphQL */ `
  mutation SubscriptionContractExpire($id: ID!) {
    subscriptionContractExpire(subscriptionContractId: $id) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`

type StatusPayload = {
  contract: ContractStatusResult | null
  userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
} | null

/** Ends a contract that reached its maxCycles (idempotent: an expired contract stays expired). */
export async function expireSubscriptionContract(
  client: AdminClient,
  contractId: string,
): Promise<ContractStatusResult> {
  const data = await client.request<{ subscriptionContractExpire: StatusPayload }>(
    'SubscriptionContractExpire',
    SUBSCRIPTION_CONTRACT_EXPIRE,
    { id: contractId },
  )
  const payload = assertNoUserErrors('subscriptionContractExpire', data.subscriptionContractExpire)
  if (!payload.contract) throw new Error('subscriptionContractExpire: no contract returned')
  return payload.contract
}

/**
 * Several billing attempts in one call (`nodes`), for the polling fallback: one request per
 * batch instead of one per attempt keeps the bucket for the charges themselves.
 */
export const BILLING_ATTEMPTS_BY_ID = /* GraphQL */ `
  query BillingAttemptsById($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on SubscriptionBillingAttempt { ${BILLING_ATTEMPT_FIELDS} }
    }
  }
`

/** Up to 50 ids per call; unknown ids are left out of the answer. */
export const ATTEMPTS_PER_POLL = 50

export async function fetchBillingAttempts(
  client: AdminClient,
  ids: string[],
): Promise<PlatformBillingAttempt[]> {
  const found: PlatformBillingAttempt[] = []
  for (let i = 0; i < ids.length; i += ATTEMPTS_PER_POLL) {
    const data = await client.request<{ nodes: Array<PlatformBillingAttempt | null> }>(
      'BillingAttemptsById',
      BILLING_ATTEMPTS_BY_ID,
      { ids: ids.slice(i, i + ATTEMPTS_PER_POLL) },
    )
    for (const node of data.nodes) if (node?.id) found.push(node)
  }
  return found
}
