// subscriptionDraftDiscountRemove, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_DISCOUNT_REMOVE = /* GraphQL */ `
  mutation SubscriptionDraftDiscountRemove($draftId: ID!, $discountId: ID!) {
    subscriptionDraftDiscountRemove(draftId: $draftId, discountId: $discountId) {
      discountRemoved { __typename }
      userErrors { code field message }
    }
  }
`
