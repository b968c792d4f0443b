// subscriptionDraftLineUpdate, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_LINE_UPDATE = /* GraphQL */ `
  mutation SubscriptionDraftLineUpdate($draftId: ID!, $lineId: ID!, $input: SubscriptionLineUpdateInput!) {
    subscriptionDraftLineUpdate(draftId: $draftId, lineId: $lineId, input: $input) {
      lineUpdated { id }
      userErrors { code field message }
    }
  }
`
