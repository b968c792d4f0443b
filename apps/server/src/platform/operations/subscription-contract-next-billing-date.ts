import type { AdminClient } from '../admin-client.ts'
import type { PlatformContractStatus } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { mutateReturning } from './requests.ts'

export const SUBSCRIPTION_CONTRACT_SET_NEXT_BILLING_DATE = withFragments(/* GraphQL */ `
  mutation SubscriptionContractSetNextBillingDate($contractId: ID!, $date: DateTime!) {
    subscriptionContractSetNextBillingDate(contractId: $contractId, date: $date) {
      contract { ...ContractStatusFields }
      userErrors { code field message }
    }
  }
`)

/** Moves a contract's next billing date (the app manages it; the platform never moves it). */
export function setContractNextBillingDate(client: AdminClient, contractId: string, date: Date | string) {
  const variables = { contractId, date: typeof date === 'string' ? date : date.toISOString() }
  const document = SUBSCRIPTION_CONTRACT_SET_NEXT_BILLING_DATE
  return mutateReturning<PlatformContractStatus>(client, document, variables, 'contract')
}
