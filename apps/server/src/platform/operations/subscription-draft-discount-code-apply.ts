// subscriptionDraftDiscountCodeApply, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_DISCOUNT_CODE_APPLY = /* GraphQL */ `
  mutation SubscriptionDraftDiscountCodeApply($draftId: ID!, $redeemCode: String!) {
    subscriptionDraftDiscountCodeApply(draftId: $draftId, redeemCode: $redeemCode) {
      appliedDiscount { id }
      userErrors { code field message }
    }
  }
`
