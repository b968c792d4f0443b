// The initial sync's exports, run with bulkOperationRunQuery (not sent as queries themselves).
// Bulk queries take every object: no `first`/`after`, nested connections become JSONL lines
// carrying `__parentId` after their parent. The node fields are the ones of the paginated
// queries (customers-page.ts, subscription-contracts-page.ts), so both paths write the same
// mirror rows through the same mappers; test/sync-bulk.test.ts checks they stay equal. Lines
// and orders are not cut here: the caps in the paginated query are only there to bound its
// cost. A contract's lines and orders both come as its child lines (`__parentId`); the sync
// tells them apart by their GID type. Three connections, two levels: within the platform's
// limits for bulk queries (five connections, two levels of nesting).

export const CUSTOMERS_BULK_QUERY = /* GraphQL */ `
  query CustomersBulk {
    customers {
      edges {
        node {
          id
          firstName
          lastName
          displayName
          email
          phone
          createdAt
          updatedAt
          defaultAddress { address1 address2 city province provinceCode zip countryCodeV2 phone firstName lastName }
        }
      }
    }
  }
`

export const SUBSCRIPTION_CONTRACTS_BULK_QUERY = /* GraphQL */ `
  query SubscriptionContractsBulk {
    subscriptionContracts {
      edges {
        node {
          id
          status
          createdAt
          updatedAt
          nextBillingDate
          currencyCode
          note
          lastPaymentStatus
          revisionId
          customer { id }
          billingPolicy { interval intervalCount minCycles maxCycles anchors { day month type cutoffDay } }
          deliveryPolicy { interval intervalCount anchors { day month type cutoffDay } }
          deliveryPrice { amount currencyCode }
          customAttributes { key value }
          originOrder { id }
          deliveryMethod {
            __typename
            ... on SubscriptionDeliveryMethodShipping {
              address { address1 address2 city province provinceCode zip countryCode firstName lastName phone }
            }
          }
          customerPaymentMethod {
            id
            instrument {
              __typename
              ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear }
            }
          }
          lines {
            edges {
              node {
                id
                productId
                variantId
                title
                variantTitle
                quantity
                sku
                sellingPlanId
                sellingPlanName
                currentPrice { amount currencyCode }
                variantImage { url }
              }
            }
          }
          orders {
            edges {
              node {
                id
                name
                createdAt
                cancelledAt
                test
                totalPriceSet { shopMoney { amount currencyCode } }
                customer { id }
              }
            }
          }
        }
      }
    }
  }
`
