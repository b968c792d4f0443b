import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import type { ContractStatusResult } from './subscription-contract-status.ts'

export const SUBSCRIPTION_CONTRACT_SET_NEXT_BILLING_DATE = /* GraphQL */ `
  mutation SubscriptionContractSetNextBillingDate($contractId: ID!, $date: DateTime!) {
    subscriptionContractSetNextBillingDate(contractId: $contractId, date: $date) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`

type Payload = {
  subscriptionContractSetNextBillingDate: {
    contract: ContractStatusResult | null
    userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
  } | null
}

/** Moves a contract's next billing date (the app manages it; the platform never moves it). */
export async function setContractNextBillingDate(
  client: AdminClient,
  contractId: string,
  date: Date | string,
): Promise<ContractStatusResult> {
  const data = await client.request<Payload>(
    'SubscriptionContractSetNextBillingDate',
    SUBSCRIPTION_CONTRACT_SET_NEXT_BILLING_DATE,
    { contractId, date: typeof date === 'string' ? date : date.toISOString() },
  )
  const payload = assertNoUserErrors(
    'subscriptionContractSetNextBillingDate',
    data.subscriptionContractSetNextBillingDate,
  )
  if (!payload.contract) throw new Error('subscriptionContractSetNextBillingDate: no contract returned')
  return payload.contract
}
