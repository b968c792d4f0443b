// subscriptionDraftLineAdd, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_LINE_ADD = /* GraphQL */ `
  mutation SubscriptionDraftLineAdd($draftId: ID!, $input: SubscriptionLineInput!) {
    subscriptionDraftLineAdd(draftId: $draftId, input: $input) {
      lineAdded { id }
      userErrors { code field message }
    }
  }
`
