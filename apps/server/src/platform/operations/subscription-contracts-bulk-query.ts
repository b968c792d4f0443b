import { PRICING_POLICY_SELECTION } from './subscription-line-pricing.ts'

// The initial sync's export of contracts with their lines and orders; see customers-bulk-query.ts
// for how bulk queries differ from the paginated ones they mirror. The lines' pricing policies
// come along (a bulk export costs no points per object): the billing engine prices the first
// charges from them instead of reading them contract by contract.

/** Contract ids from `from` to `to`, both included: one part of an export split by id. */
export type ContractIdRange = { from: number; to: number }

/**
 * The export of every contract, or of the contracts of one id range (the platform's search
 * syntax, `id:>=… id:<=…`; a bulk query takes no variables, and the bounds are integers).
 */
export function subscriptionContractsBulkQuery(range: ContractIdRange | null = null): string {
  if (range && !(Number.isSafeInteger(range.from) && Number.isSafeInteger(range.to)))
    throw new Error(`contract id range must be integers: ${range.from}..${range.to}`)
  const args = range ? `(query: "id:>=${range.from} id:<=${range.to}")` : ''
  return /* GraphQL */ `
  query SubscriptionContractsBulk {
    subscriptionContracts${args} {
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
                ${PRICING_POLICY_SELECTION}
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
                totalRefundedSet { shopMoney { amount } }
                customer { id }
              }
            }
          }
        }
      }
    }
  }
`
}

export const SUBSCRIPTION_CONTRACTS_BULK_QUERY = subscriptionContractsBulkQuery()
