/** The documents the app sends in the first cut; tests run them against the emulator and the real schema. */
export const shopQuery = `query ShopInfo {
  shop { id name myshopifyDomain email currencyCode ianaTimezone primaryDomain { url host } plan { displayName partnerDevelopment shopifyPlus } }
  currentAppInstallation {
    id
    accessScopes { handle }
    activeSubscriptions {
      id name status test trialDays currentPeriodEnd createdAt
      lineItems { plan { pricingDetails { __typename ... on AppRecurringPricing { interval price { amount currencyCode } } } } }
    }
  }
}`

export const customersQuery = `query Customers($first: Int, $after: String, $query: String, $sortKey: CustomerSortKeys, $reverse: Boolean) {
  customers(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) {
    edges { cursor node { id } }
    nodes {
      id firstName lastName displayName email phone createdAt updatedAt numberOfOrders tags
      defaultAddress { address1 address2 city province provinceCode zip country countryCodeV2 phone firstName lastName }
    }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

export const customerQuery = `query Customer($id: ID!) { customer(id: $id) { id displayName email } }`

const contractFields = `
  id status createdAt updatedAt nextBillingDate currencyCode note lastPaymentStatus revisionId
  customer { id displayName email }
  billingPolicy { interval intervalCount minCycles maxCycles anchors { day month type cutoffDay } }
  deliveryPolicy { interval intervalCount anchors { day month type cutoffDay } }
  deliveryPrice { amount currencyCode }
  customAttributes { key value }
  originOrder { id }
  lines(first: 10) {
    nodes { id productId variantId title variantTitle quantity sku sellingPlanId sellingPlanName currentPrice { amount currencyCode } variantImage { url } }
    pageInfo { hasNextPage endCursor }
  }
  linesCount { count }
  deliveryMethod { __typename ... on SubscriptionDeliveryMethodShipping { address { address1 address2 city province provinceCode zip countryCode firstName lastName phone } } }
  customerPaymentMethod { id instrument { __typename ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear } } }
  orders(first: 5) { nodes { id name createdAt test totalPriceSet { shopMoney { amount currencyCode } } } }
  billingAttempts(first: 5) { nodes { id createdAt ready errorMessage errorCode idempotencyKey order { id } } }
`

export const contractsQuery = `query Contracts($first: Int, $after: String, $last: Int, $before: String, $reverse: Boolean, $query: String) {
  subscriptionContracts(first: $first, after: $after, last: $last, before: $before, reverse: $reverse, query: $query) {
    nodes { ${contractFields} }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

export const contractIdsQuery = `query ContractIds($first: Int, $after: String, $last: Int, $before: String, $reverse: Boolean, $query: String) {
  subscriptionContracts(first: $first, after: $after, last: $last, before: $before, reverse: $reverse, query: $query) {
    edges { cursor node { id status createdAt updatedAt } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`

export const contractQuery = `query Contract($id: ID!) { subscriptionContract(id: $id) { ${contractFields} } }`

const adjustment = `adjustmentValue { __typename ... on SellingPlanPricingPolicyPercentageValue { percentage } ... on MoneyV2 { amount currencyCode } }`
const groupFields = `
  id name merchantCode createdAt
  productsCount { count }
  productVariantsCount { count }
  products(first: 20) { nodes { id title } }
  sellingPlans(first: 10) {
    nodes {
      id name description category options
      billingPolicy { __typename ... on SellingPlanRecurringBillingPolicy { interval intervalCount minCycles maxCycles anchors { day month type cutoffDay } } }
      deliveryPolicy { __typename ... on SellingPlanRecurringDeliveryPolicy { interval intervalCount cutoff anchors { day month type cutoffDay } } }
      pricingPolicies {
        __typename
        ... on SellingPlanFixedPricingPolicy { adjustmentType ${adjustment} }
        ... on SellingPlanRecurringPricingPolicy { afterCycle adjustmentType ${adjustment} }
      }
    }
  }
`

export const sellingPlanGroupsQuery = `query SellingPlanGroups($first: Int, $after: String, $last: Int, $before: String, $query: String) {
  sellingPlanGroups(first: $first, after: $after, last: $last, before: $before, query: $query) {
    nodes { ${groupFields} }
    pageInfo { hasNextPage endCursor }
  }
}`

export const sellingPlanGroupQuery = `query SellingPlanGroup($id: ID!) { sellingPlanGroup(id: $id) { ${groupFields} } }`

export const productsQuery = `query Products($first: Int, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query) {
    nodes {
      id title handle status
      featuredMedia { preview { image { url } } }
      featuredImage { url }
      variants(first: 10) { nodes { id title sku price } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`

export const productVariantQuery = `query ProductVariant($id: ID!) { productVariant(id: $id) { id title sku price product { id title } } }`

export const ordersQuery = `query Orders($first: Int, $after: String, $query: String, $reverse: Boolean) {
  orders(first: $first, after: $after, query: $query, reverse: $reverse) {
    nodes {
      id name createdAt cancelledAt test
      totalPriceSet { shopMoney { amount currencyCode } }
      customer { id }
      lineItems(first: 5) { nodes { id title quantity variant { id } } }
    }
    pageInfo { hasNextPage endCursor }
  }
}`

export const allDocuments = {
  shopQuery,
  customersQuery,
  customerQuery,
  contractsQuery,
  contractIdsQuery,
  contractQuery,
  sellingPlanGroupsQuery,
  sellingPlanGroupQuery,
  productsQuery,
  productVariantQuery,
  ordersQuery,
}
