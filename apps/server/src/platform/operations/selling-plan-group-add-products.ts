/** Adds products to a group; sent by selling-plan-group-resources.ts. */
export const SELLING_PLAN_GROUP_ADD_PRODUCTS = /* GraphQL */ `
  mutation SellingPlanGroupAddProducts($id: ID!, $ids: [ID!]!) {
    sellingPlanGroupAddProducts(id: $id, productIds: $ids) {
      sellingPlanGroup { id }
      userErrors { code field message }
    }
  }
`
