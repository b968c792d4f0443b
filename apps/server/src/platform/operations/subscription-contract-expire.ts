import { withFragments } from './fragments.ts'

// subscriptionContractExpire: see subscription-contract-status.ts, which sends it (billing
// ends a contract that reached its maxCycles).

export const SUBSCRIPTION_CONTRACT_EXPIRE = withFragments(/* GraphQL */ `
  mutation SubscriptionContractExpire($id: ID!) {
    subscriptionContractExpire(subscriptionContractId: $id) {
      contract { ...ContractStatusFields }
      userErrors { code field message }
    }
  }
`)
