/** Removes products from a group; sent by selling-plan-group-resources.ts. */
export const SELLING_PLAN_GROUP_REMOVE_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupRemoveProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupRemoveProducts(id: $id, productIds: $ids) {
      removedProductIds
      userErrors { code field message }
    }
  }
`
