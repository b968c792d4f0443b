import type { AdminClient } from '../admin-client.ts'
import type { PlatformContractDetail } from './subscription-contract-detail.ts'

/**
 * A customer's payment methods a contract may be moved to (revoked ones left out). The instrument
 * fragments are the detail document's, so both screens show a method the same way.
 */
export const CUSTOMER_PAYMENT_METHODS = /* GraphQL */ `
  query CustomerPaymentMethods($id: ID!) {
    customer(id: $id) {
      paymentMethods(first: 20, showRevoked: false) {
        nodes {
          id
          revokedAt
          instrument {
            __typename
            ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear isRevocable }
            ... on CustomerPaypalBillingAgreement { paypalAccountEmail }
            ... on CustomerShopPayAgreement { name }
          }
        }
      }
    }
  }
`

export type PlatformCustomerPaymentMethod = {
  id: string
  revokedAt: string | null
  instrument: NonNullable<PlatformContractDetail['customerPaymentMethod']>['instrument']
}

/** The customer's payment methods, or null when the platform does not know the customer. */
export async function fetchCustomerPaymentMethods(
  client: AdminClient,
  customerGid: string,
): Promise<PlatformCustomerPaymentMethod[] | null> {
  const data = await client.request<{
    customer: { paymentMethods: { nodes: PlatformCustomerPaymentMethod[] } } | null
  }>('CustomerPaymentMethods', CUSTOMER_PAYMENT_METHODS, { id: customerGid })
  return data.customer?.paymentMethods.nodes ?? null
}
