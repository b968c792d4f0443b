import type { AdminClient } from '../admin-client.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'
import type { PlatformPaymentInstrument } from './shared-fragments.ts'

/**
 * A customer's payment methods a contract may be moved to (revoked ones left out). The instrument
 * fragment is the detail document's, so both screens show a method the same way.
 */
export const CUSTOMER_PAYMENT_METHODS = withFragments(/* GraphQL */ `
  query CustomerPaymentMethods($id: ID!) {
    customer(id: $id) {
      paymentMethods(first: 20, showRevoked: false) {
        nodes {
          id
          revokedAt
          instrument { ...PaymentInstrumentFields }
        }
      }
    }
  }
`)

export type PlatformCustomerPaymentMethod = {
  id: string
  revokedAt: string | null
  instrument: PlatformPaymentInstrument
}

/** The customer's payment methods, or null when the platform does not know the customer. */
export function fetchCustomerPaymentMethods(client: AdminClient, customerGid: string) {
  const path = ['customer', 'paymentMethods', 'nodes']
  return queryPath<PlatformCustomerPaymentMethod[]>(
    client,
    CUSTOMER_PAYMENT_METHODS,
    { id: customerGid },
    path,
  )
}
