// subscriptionDraftCommit, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_COMMIT = /* GraphQL */ `
  mutation SubscriptionDraftCommit($draftId: ID!) {
    subscriptionDraftCommit(draftId: $draftId) {
      contract { id revisionId updatedAt status nextBillingDate }
      userErrors { code field message }
    }
  }
`
