// subscriptionDraftLineRemove, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_LINE_REMOVE = /* GraphQL */ `
  mutation SubscriptionDraftLineRemove($draftId: ID!, $lineId: ID!) {
    subscriptionDraftLineRemove(draftId: $draftId, lineId: $lineId) {
      lineRemoved { id }
      userErrors { code field message }
    }
  }
`
