import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

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

type Payload = {
  subscriptionBillingAttemptCreate: {
    subscriptionBillingAttempt: CreatedBillingAttempt | null
    userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
  } | null
}

export async function createBillingAttempt(
  client: AdminClient,
  contractId: string,
  idempotencyKey: string,
  originTime?: Date,
): Promise<CreatedBillingAttempt> {
  const data = await client.request<Payload>(
    'SubscriptionBillingAttemptCreate',
    SUBSCRIPTION_BILLING_ATTEMPT_CREATE,
    {
      contractId,
      input: { idempotencyKey, ...(originTime ? { originTime: originTime.toISOString() } : {}) },
    },
  )
  const payload = assertNoUserErrors(
    'subscriptionBillingAttemptCreate',
    data.subscriptionBillingAttemptCreate,
  )
  if (!payload.subscriptionBillingAttempt)
    throw new Error('subscriptionBillingAttemptCreate: no attempt returned')
  return payload.subscriptionBillingAttempt
}
