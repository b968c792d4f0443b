// subscriptionContractExpire: see subscription-contract-status.ts, which sends it (billing
// ends a contract that reached its maxCycles).

export const SUBSCRIPTION_CONTRACT_EXPIRE = /* GraphQL */ `
  mutation SubscriptionContractExpire($id: ID!) {
    subscriptionContractExpire(subscriptionContractId: $id) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`
