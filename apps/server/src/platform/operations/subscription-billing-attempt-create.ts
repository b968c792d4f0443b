import type { AdminClient } from '../admin-client.ts'
import { mutateReturning } from './requests.ts'

/**
 * Charges a contract now. The platform runs the charge asynchronously: the attempt comes back
 * not ready and its outcome arrives by webhook. The idempotency key makes a retried request
 * (double click, 5xx whose effect is unknown) return the same attempt instead of charging twice.
 */
export const SUBSCRIPTION_BILLING_ATTEMPT_CREATE = /* GraphQL */ `
  mutation SubscriptionBillingAttemptCreate($contractId: ID!, $input: SubscriptionBillingAttemptInput!) {
    subscriptionBillingAttemptCreate(subscriptionContractId: $contractId, subscriptionBillingAttemptInput: $input) {
      subscriptionBillingAttempt {
        id
        idempotencyKey
        createdAt
        ready
        errorCode
        errorMessage
        order { id }
      }
      userErrors { code field message }
    }
  }
`

export type CreatedBillingAttempt = {
  id: string
  idempotencyKey: string
  createdAt: string
  ready: boolean
  errorCode: string | null
  errorMessage: string | null
  order: { id: string } | null
}

export function createBillingAttempt(
  client: AdminClient,
  contractId: string,
  idempotencyKey: string,
  originTime?: Date,
): Promise<CreatedBillingAttempt> {
  const input = { idempotencyKey, ...(originTime ? { originTime: originTime.toISOString() } : {}) }
  const document = SUBSCRIPTION_BILLING_ATTEMPT_CREATE
  return mutateReturning(client, document, { contractId, input }, 'subscriptionBillingAttempt')
}
