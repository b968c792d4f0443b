import { withFragments } from './fragments.ts'

// subscriptionContractActivate: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_ACTIVATE = withFragments(/* GraphQL */ `
  mutation SubscriptionContractActivate($id: ID!) {
    subscriptionContractActivate(subscriptionContractId: $id) {
      contract { ...ContractStatusFields }
      userErrors { code field message }
    }
  }
`)
