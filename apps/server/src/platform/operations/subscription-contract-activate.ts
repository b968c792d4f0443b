// subscriptionContractActivate: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_ACTIVATE = /* GraphQL */ `
  mutation SubscriptionContractActivate($id: ID!) {
    subscriptionContractActivate(subscriptionContractId: $id) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`
