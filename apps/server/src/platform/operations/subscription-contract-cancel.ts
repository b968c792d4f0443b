import { withFragments } from './fragments.ts'

// subscriptionContractCancel: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_CANCEL = withFragments(/* GraphQL */ `
  mutation SubscriptionContractCancel($id: ID!) {
    subscriptionContractCancel(subscriptionContractId: $id) {
      contract { ...ContractStatusFields }
      userErrors { code field message }
    }
  }
`)
