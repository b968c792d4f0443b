// subscriptionDraftDiscountAdd, one step of a contract edit through a draft (subscription-draft.ts sends it).

export const SUBSCRIPTION_DRAFT_DISCOUNT_ADD = /* GraphQL */ `
  mutation SubscriptionDraftDiscountAdd($draftId: ID!, $input: SubscriptionManualDiscountInput!) {
    subscriptionDraftDiscountAdd(draftId: $draftId, input: $input) {
      discountAdded { id }
      userErrors { code field message }
    }
  }
`

/** SubscriptionManualDiscountInput as the app sends it: on every line, a percentage or an amount per order. */
export type ManualDiscountInput = {
  title: string
  value: { percentage: number } | { fixedAmount: { amount: number; appliesOnEachItem: false } }
  recurringCycleLimit: number
  entitledLines: { all: true }
}
