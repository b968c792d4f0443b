import type { AdminClient } from '../admin-client.ts'

/**
 * What the billing engine asks of a contract just before its charge: its status, next billing
 * date and updatedAt, scalars of one object (1 point). Compared with the mirror, they show a
 * contract paused, cancelled or moved on the platform while its webhook was lost (it is then
 * resynced, not charged), and whether the pricing policies the mirror keeps are still the
 * platform's (same updatedAt) or must be read again.
 */
export const SUBSCRIPTION_CHARGE_CHECK = /* GraphQL */ `
  query SubscriptionChargeCheck($id: ID!) {
    subscriptionContract(id: $id) {
      id
      status
      nextBillingDate
      updatedAt
      revisionId
    }
  }
`

export type ChargeCheck = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  nextBillingDate: string | null
  updatedAt: string
  revisionId: string | null
}

/** The contract's state on the platform, or null when the platform no longer has it. */
export async function fetchChargeCheck(client: AdminClient, contractId: string): Promise<ChargeCheck | null> {
  const data = await client.request<{ subscriptionContract: ChargeCheck | null }>(
    'SubscriptionChargeCheck',
    SUBSCRIPTION_CHARGE_CHECK,
    { id: contractId },
  )
  return data.subscriptionContract
}
