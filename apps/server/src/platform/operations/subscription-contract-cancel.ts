// subscriptionContractCancel: see subscription-contract-status.ts, which sends it.

export const SUBSCRIPTION_CONTRACT_CANCEL = /* GraphQL */ `
  mutation SubscriptionContractCancel($id: ID!) {
    subscriptionContractCancel(subscriptionContractId: $id) {
      contract { id status nextBillingDate updatedAt revisionId }
      userErrors { code field message }
    }
  }
`
