import { withFragments } from './fragments.ts'

// subscriptionContractPause: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_PAUSE = withFragments(/* GraphQL */ `
  mutation SubscriptionContractPause($id: ID!) {
    subscriptionContractPause(subscriptionContractId: $id) {
      contract { ...ContractStatusFields }
      userErrors { code field message }
    }
  }
`)
