/** Mutation and follow-up documents in the shape the app sends them; conformance checks each against the real schema. */
const statusUpdate = (name: string) => `mutation ${name[0]!.toUpperCase()}${name.slice(1)}($id: ID!) {
  ${name}(subscriptionContractId: $id) {
    contract { id status updatedAt revisionId }
    userErrors { code field message }
  }
}`

export const contractPause = statusUpdate('subscriptionContractPause')
export const contractActivate = statusUpdate('subscriptionContractActivate')
export const contractCancel = statusUpdate('subscriptionContractCancel')
export const contractFail = statusUpdate('subscriptionContractFail')
export const contractExpire = statusUpdate('subscriptionContractExpire')

export const setNextBillingDate = `mutation SetNextBillingDate($contractId: ID!, $date: DateTime!) {
  subscriptionContractSetNextBillingDate(contractId: $contractId, date: $date) {
    contract { id nextBillingDate revisionId }
    userErrors { code field message }
  }
}`

const draftFields = `
  id status nextBillingDate note currencyCode
  deliveryPrice { amount currencyCode }
  customAttributes { key value }
  billingPolicy { interval intervalCount minCycles maxCycles anchors { type day month cutoffDay } }
  deliveryPolicy { interval intervalCount anchors { type day } }
  deliveryMethod { __typename ... on SubscriptionDeliveryMethodShipping { address { address1 city provinceCode zip countryCode lastName firstName } } }
  customerPaymentMethod { id }
  lines(first: 20) { nodes { id variantId quantity currentPrice { amount } title } }
  linesAdded(first: 20) { nodes { id } }
  linesRemoved(first: 20) { nodes { id } }
  discounts(first: 10) {
    nodes {
      __typename
      ... on SubscriptionAppliedCodeDiscount { id redeemCode }
      ... on SubscriptionManualDiscount { id title }
    }
  }
  originalContract { id }
`

export const contractUpdate = `mutation ContractUpdate($contractId: ID!) {
  subscriptionContractUpdate(contractId: $contractId) {
    draft { ${draftFields} }
    userErrors { code field message }
  }
}`

export const draftUpdate = `mutation DraftUpdate($draftId: ID!, $input: SubscriptionDraftInput!) {
  subscriptionDraftUpdate(draftId: $draftId, input: $input) {
    draft { ${draftFields} }
    userErrors { code field message }
  }
}`

export const draftLineAdd = `mutation DraftLineAdd($draftId: ID!, $input: SubscriptionLineInput!) {
  subscriptionDraftLineAdd(draftId: $draftId, input: $input) {
    lineAdded { id variantId quantity currentPrice { amount currencyCode } title sku }
    draft { id lines(first: 20) { nodes { id } } }
    userErrors { code field message }
  }
}`

export const draftLineUpdate = `mutation DraftLineUpdate($draftId: ID!, $lineId: ID!, $input: SubscriptionLineUpdateInput!) {
  subscriptionDraftLineUpdate(draftId: $draftId, lineId: $lineId, input: $input) {
    lineUpdated { id quantity currentPrice { amount } }
    userErrors { code field message }
  }
}`

export const draftLineRemove = `mutation DraftLineRemove($draftId: ID!, $lineId: ID!) {
  subscriptionDraftLineRemove(draftId: $draftId, lineId: $lineId) {
    lineRemoved { id }
    draft { id lines(first: 20) { nodes { id } } }
    userErrors { code field message }
  }
}`

export const draftDiscountCodeApply = `mutation DraftDiscountCodeApply($draftId: ID!, $redeemCode: String!) {
  subscriptionDraftDiscountCodeApply(draftId: $draftId, redeemCode: $redeemCode) {
    appliedDiscount { id redeemCode rejectionReason }
    userErrors { code field message }
  }
}`

export const draftDiscountRemove = `mutation DraftDiscountRemove($draftId: ID!, $discountId: ID!) {
  subscriptionDraftDiscountRemove(draftId: $draftId, discountId: $discountId) {
    discountRemoved { __typename ... on SubscriptionAppliedCodeDiscount { id } ... on SubscriptionManualDiscount { id } }
    userErrors { code field message }
  }
}`

export const draftCommit = `mutation DraftCommit($draftId: ID!) {
  subscriptionDraftCommit(draftId: $draftId) {
    contract {
      id status note nextBillingDate revisionId updatedAt
      deliveryPrice { amount }
      lines(first: 20) { nodes { id variantId quantity currentPrice { amount } } }
      discounts(first: 10) {
        nodes {
          id title usageCount recurringCycleLimit targetType type
          value { __typename ... on SubscriptionDiscountPercentageValue { percentage } ... on SubscriptionDiscountFixedAmountValue { amount { amount currencyCode } appliesOnEachItem } }
          entitledLines { all }
        }
      }
    }
    userErrors { code field message }
  }
}`

const attemptFields = `id idempotencyKey ready errorCode errorMessage createdAt completedAt originTime order { id name totalPriceSet { shopMoney { amount currencyCode } } test } subscriptionContract { id lastPaymentStatus }`

export const billingAttemptCreate = `mutation BillingAttemptCreate($contractId: ID!, $input: SubscriptionBillingAttemptInput!) {
  subscriptionBillingAttemptCreate(subscriptionContractId: $contractId, subscriptionBillingAttemptInput: $input) {
    subscriptionBillingAttempt { ${attemptFields} }
    userErrors { code field message }
  }
}`

export const billingAttemptQuery = `query BillingAttempt($id: ID!) { subscriptionBillingAttempt(id: $id) { ${attemptFields} } }`

const planFields = `id name merchantCode options
  productsCount { count }
  productVariantsCount { count }
  sellingPlans(first: 10) {
    nodes {
      id name options
      billingPolicy { ... on SellingPlanRecurringBillingPolicy { interval intervalCount minCycles maxCycles anchors { type day month cutoffDay } } }
      deliveryPolicy { ... on SellingPlanRecurringDeliveryPolicy { interval intervalCount cutoff intent preAnchorBehavior anchors { type day } } }
      pricingPolicies {
        __typename
        ... on SellingPlanFixedPricingPolicy { adjustmentType adjustmentValue { __typename ... on SellingPlanPricingPolicyPercentageValue { percentage } ... on MoneyV2 { amount currencyCode } } }
        ... on SellingPlanRecurringPricingPolicy { afterCycle adjustmentType adjustmentValue { __typename ... on SellingPlanPricingPolicyPercentageValue { percentage } ... on MoneyV2 { amount } } }
      }
    }
  }`

export const sellingPlanGroupCreate = `mutation SellingPlanGroupCreate($input: SellingPlanGroupInput!, $resources: SellingPlanGroupResourceInput) {
  sellingPlanGroupCreate(input: $input, resources: $resources) {
    sellingPlanGroup { ${planFields} }
    userErrors { code field message }
  }
}`

export const sellingPlanGroupUpdate = `mutation SellingPlanGroupUpdate($id: ID!, $input: SellingPlanGroupInput!) {
  sellingPlanGroupUpdate(id: $id, input: $input) {
    sellingPlanGroup { ${planFields} }
    deletedSellingPlanIds
    userErrors { code field message }
  }
}`

export const sellingPlanGroupDelete = `mutation SellingPlanGroupDelete($id: ID!) {
  sellingPlanGroupDelete(id: $id) { deletedSellingPlanGroupId userErrors { code field message } }
}`

export const sellingPlanGroupAddProducts = `mutation SellingPlanGroupAddProducts($id: ID!, $productIds: [ID!]!) {
  sellingPlanGroupAddProducts(id: $id, productIds: $productIds) { sellingPlanGroup { id productsCount { count } } userErrors { code field message } }
}`

export const sellingPlanGroupRemoveProducts = `mutation SellingPlanGroupRemoveProducts($id: ID!, $productIds: [ID!]!) {
  sellingPlanGroupRemoveProducts(id: $id, productIds: $productIds) { removedProductIds userErrors { code field message } }
}`

export const sellingPlanGroupAddProductVariants = `mutation SellingPlanGroupAddProductVariants($id: ID!, $ids: [ID!]!) {
  sellingPlanGroupAddProductVariants(id: $id, productVariantIds: $ids) { sellingPlanGroup { id productVariantsCount { count } } userErrors { code field message } }
}`

export const sellingPlanGroupRemoveProductVariants = `mutation SellingPlanGroupRemoveProductVariants($id: ID!, $ids: [ID!]!) {
  sellingPlanGroupRemoveProductVariants(id: $id, productVariantIds: $ids) { removedProductVariantIds userErrors { code field message } }
}`

export const paymentMethodSendUpdateEmail = `mutation PaymentMethodSendUpdateEmail($id: ID!) {
  customerPaymentMethodSendUpdateEmail(customerPaymentMethodId: $id) { customer { id email } userErrors { field message } }
}`

export const tagsAdd = `mutation TagsAdd($id: ID!, $tags: [String!]!) {
  tagsAdd(id: $id, tags: $tags) { node { id ... on Customer { tags } } userErrors { field message } }
}`

export const tagsRemove = `mutation TagsRemove($id: ID!, $tags: [String!]!) {
  tagsRemove(id: $id, tags: $tags) { node { id ... on Customer { tags } } userErrors { field message } }
}`

export const appSubscriptionCreate = `mutation AppSubscriptionCreate($name: String!, $lineItems: [AppSubscriptionLineItemInput!]!, $returnUrl: URL!, $test: Boolean) {
  appSubscriptionCreate(name: $name, lineItems: $lineItems, returnUrl: $returnUrl, test: $test) {
    appSubscription { id name status test }
    confirmationUrl
    userErrors { field message }
  }
}`

export const scriptTags = `query ScriptTags { scriptTags(first: 50) { nodes { id src displayScope cache createdAt } } }`

export const scriptTagCreate = `mutation ScriptTagCreate($input: ScriptTagInput!) {
  scriptTagCreate(input: $input) { scriptTag { id src displayScope cache } userErrors { field message } }
}`

export const scriptTagDelete = `mutation ScriptTagDelete($id: ID!) { scriptTagDelete(id: $id) { deletedScriptTagId userErrors { field message } } }`

export const metafieldsSet = `mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { id namespace key type value jsonValue compareDigest createdAt updatedAt }
    userErrors { code elementIndex field message }
  }
}`

export const appMetafield = `query AppMetafield($namespace: String, $key: String!) {
  currentAppInstallation { id metafield(namespace: $namespace, key: $key) { key type value jsonValue compareDigest } }
}`

export const themes = `query Themes($roles: [ThemeRole!]) { themes(first: 10, roles: $roles) { nodes { id name role } } }`

export const themeFiles = `query ThemeFiles($id: ID!, $filenames: [String!]) {
  theme(id: $id) {
    id
    files(filenames: $filenames, first: 50) {
      nodes { filename size contentType checksumMd5 body { ... on OnlineStoreThemeFileBodyText { content } } }
      userErrors { code filename }
    }
  }
}`

export const themeFilesUpsert = `mutation ThemeFilesUpsert($themeId: ID!, $files: [OnlineStoreThemeFilesUpsertFileInput!]!) {
  themeFilesUpsert(themeId: $themeId, files: $files) {
    upsertedThemeFiles { filename size }
    userErrors { code field filename message }
  }
}`

export const bulkOperationRunQuery = `mutation BulkOperationRunQuery($query: String!) {
  bulkOperationRunQuery(query: $query) {
    bulkOperation { id status }
    userErrors { code field message }
  }
}`

const bulkFields =
  'id status errorCode createdAt completedAt objectCount rootObjectCount fileSize url partialDataUrl query type'
export const currentBulkOperation = `query CurrentBulkOperation { currentBulkOperation { ${bulkFields} } }`
export const bulkOperationNode = `query BulkOperationNode($id: ID!) { node(id: $id) { ... on BulkOperation { ${bulkFields} } } }`

/** The app's contract export, run as a bulk query (no `first`: bulk queries take everything). */
export const contractExportBulkQuery = `{
  subscriptionContracts {
    edges { node {
      id status nextBillingDate
      customer { id email }
      lines { edges { node { id variantId quantity currentPrice { amount } } } }
    } }
  }
}`

export const webhookSubscriptionCreate = `mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $input: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $input) {
    webhookSubscription { id topic format callbackUrl endpoint { __typename ... on WebhookHttpEndpoint { callbackUrl } } apiVersion { handle } }
    userErrors { field message }
  }
}`

export const webhookSubscriptions = `query WebhookSubscriptions($topics: [WebhookSubscriptionTopic!]) {
  webhookSubscriptions(first: 50, topics: $topics) { nodes { id topic callbackUrl } }
}`

export const webhookSubscriptionDelete = `mutation WebhookSubscriptionDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) { deletedWebhookSubscriptionId userErrors { field message } }
}`

const deliveryProfileFields = `
  id name default
  sellingPlanGroups(first: 10) { nodes { id name } }
  profileLocationGroups {
    locationGroup { id locations(first: 3) { nodes { id name isActive } } }
    locationGroupZones(first: 3) {
      nodes {
        zone { id name countries { id name code { countryCode restOfWorld } provinces { id code name } } }
        methodDefinitions(first: 3) {
          nodes {
            id name active description
            rateProvider { __typename ... on DeliveryRateDefinition { id price { amount currencyCode } } }
          }
        }
      }
    }
  }
`

export const deliveryProfiles = `query DeliveryProfiles($first: Int!, $after: String) {
  deliveryProfiles(first: $first, after: $after) {
    nodes { ${deliveryProfileFields} }
    pageInfo { hasNextPage endCursor }
  }
}`

export const deliveryProfile = `query DeliveryProfile($id: ID!) { deliveryProfile(id: $id) { ${deliveryProfileFields} } }`

export const locations = `query Locations($first: Int!) {
  locations(first: $first) { nodes { id name isActive } }
}`

export const deliveryProfileCreate = `mutation DeliveryProfileCreate($profile: DeliveryProfileInput!) {
  deliveryProfileCreate(profile: $profile) {
    profile { ${deliveryProfileFields} }
    userErrors { field message }
  }
}`

export const deliveryProfileUpdate = `mutation DeliveryProfileUpdate($id: ID!, $profile: DeliveryProfileInput!) {
  deliveryProfileUpdate(id: $id, profile: $profile) {
    profile { ${deliveryProfileFields} }
    userErrors { field message }
  }
}`

export const shopifyFunctions = `query ShopifyFunctions($apiType: String) {
  shopifyFunctions(first: 25, apiType: $apiType) {
    nodes { id title apiType apiVersion appKey inputQuery }
  }
}`

export const validationCreate = `mutation ValidationCreate($validation: ValidationCreateInput!) {
  validationCreate(validation: $validation) {
    validation { id title enabled blockOnFailure shopifyFunction { id title } metafield(namespace: "teiki", key: "box_rules") { value } }
    userErrors { code field message }
  }
}`

export const validationsQuery = `query Validations {
  validations(first: 25) {
    nodes { id enabled shopifyFunction { id } metafield(namespace: "teiki", key: "box_rules") { jsonValue } }
  }
}`

export const mutationDocuments: Record<string, string> = {
  contractPause,
  contractActivate,
  contractCancel,
  contractFail,
  contractExpire,
  setNextBillingDate,
  contractUpdate,
  draftUpdate,
  draftLineAdd,
  draftLineUpdate,
  draftLineRemove,
  draftDiscountCodeApply,
  draftDiscountRemove,
  draftCommit,
  billingAttemptCreate,
  billingAttemptQuery,
  sellingPlanGroupCreate,
  sellingPlanGroupUpdate,
  sellingPlanGroupDelete,
  sellingPlanGroupAddProducts,
  sellingPlanGroupRemoveProducts,
  sellingPlanGroupAddProductVariants,
  sellingPlanGroupRemoveProductVariants,
  paymentMethodSendUpdateEmail,
  tagsAdd,
  tagsRemove,
  appSubscriptionCreate,
  scriptTags,
  scriptTagCreate,
  scriptTagDelete,
  themes,
  themeFiles,
  themeFilesUpsert,
  metafieldsSet,
  appMetafield,
  bulkOperationRunQuery,
  currentBulkOperation,
  bulkOperationNode,
  contractExportBulkQuery,
  webhookSubscriptionCreate,
  webhookSubscriptions,
  webhookSubscriptionDelete,
  deliveryProfiles,
  deliveryProfile,
  locations,
  deliveryProfileCreate,
  deliveryProfileUpdate,
  shopifyFunctions,
  validationCreate,
  validationsQuery,
}

export const webPixelCreate = `mutation WebPixelCreate($webPixel: WebPixelInput!) {
  webPixelCreate(webPixel: $webPixel) {
    webPixel { id settings }
    userErrors { code field message }
  }
}`

export const webPixelUpdate = `mutation WebPixelUpdate($id: ID!, $webPixel: WebPixelInput!) {
  webPixelUpdate(id: $id, webPixel: $webPixel) {
    webPixel { id settings }
    userErrors { code field message }
  }
}`

export const webPixelDelete = `mutation WebPixelDelete($id: ID!) {
  webPixelDelete(id: $id) {
    deletedWebPixelId
    userErrors { code field message }
  }
}`

export const webPixelQuery = `query WebPixel { webPixel { id settings } }`
