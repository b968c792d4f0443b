import type { AdminClient } from '../admin-client.ts'
import type { PlatformContractStatus } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'

/**
 * What the billing engine asks of a contract just before its charge: its status, next billing
 * date and updatedAt, scalars of one object (1 point). Compared with the mirror, they show a
 * contract paused, cancelled or moved on the platform while its webhook was lost (it is then
 * resynced, not charged), and whether the pricing policies the mirror keeps are still the
 * platform's (same updatedAt) or must be read again.
 */
export const SUBSCRIPTION_CHARGE_CHECK = withFragments(/* GraphQL */ `
  query SubscriptionChargeCheck($id: ID!) {
    subscriptionContract(id: $id) { ...ContractStatusFields }
  }
`)

export type ChargeCheck = PlatformContractStatus

/** The contract's state on the platform, or null when the platform no longer has it. */
export function fetchChargeCheck(client: AdminClient, contractId: string) {
  const path = ['subscriptionContract']
  return queryPath<ChargeCheck>(client, SUBSCRIPTION_CHARGE_CHECK, { id: contractId }, path)
}
