// subscriptionContractUpdate, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_CONTRACT_UPDATE = /* GraphQL */ `
  mutation SubscriptionContractUpdate($contractId: ID!) {
    subscriptionContractUpdate(contractId: $contractId) {
      draft { id customAttributes { key value } }
      userErrors { code field message }
    }
  }
`
