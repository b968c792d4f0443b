/** Adds single variants to a group; sent by selling-plan-group-resources.ts. */
export const SELLING_PLAN_GROUP_ADD_PRODUCT_VARIANTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProductVariants($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProductVariants(id: $id, productVariantIds: $ids) {
      sellingPlanGroup { id }
      userErrors { code field message }
    }
  }
`
