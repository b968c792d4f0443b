import type { AdminClient } from '../admin-client.ts'
import { queryPath } from './requests.ts'

/** The discounts on a contract (spec §3 "Discount on a contract"; the spec's first 10). */
export const SUBSCRIPTION_CONTRACT_DISCOUNTS = /* GraphQL */ `
  query SubscriptionContractDiscounts($id: ID!) {
    subscriptionContract(id: $id) {
      id
      discounts(first: 10) {
        nodes { id title usageCount recurringCycleLimit targetType }
      }
    }
  }
`

export type PlatformContractDiscount = {
  id: string
  title: string | null
  usageCount: number
  recurringCycleLimit: number | null
  targetType: string
}

/** The contract's discounts, or null when the platform does not know the contract. */
export function fetchContractDiscounts(client: AdminClient, id: string) {
  const path = ['subscriptionContract', 'discounts', 'nodes']
  return queryPath<PlatformContractDiscount[]>(client, SUBSCRIPTION_CONTRACT_DISCOUNTS, { id }, path)
}
