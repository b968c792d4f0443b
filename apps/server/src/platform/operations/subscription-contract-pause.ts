// subscriptionContractPause: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_PAUSE = /* GraphQL */ `
  mutation SubscriptionContractPause($id: ID!) {
    subscriptionContractPause(subscriptionContractId: $id) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`
