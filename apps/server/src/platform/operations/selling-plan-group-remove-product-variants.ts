/** Removes single variants from a group; sent by selling-plan-group-resources.ts. */
export const SELLING_PLAN_GROUP_REMOVE_PRODUCT_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProductVariants(id: $id, productVariantIds: $ids) {
      removedProductVariantIds
      userErrors { code field message }
    }
  }
`
