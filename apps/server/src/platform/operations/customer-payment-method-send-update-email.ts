import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

/** Sends the customer the platform's e-mail with a link to update a payment method. */
export const CUSTOMER_PAYMENT_METHOD_SEND_UPDATE_EMAIL = /* GraphQL */ `
  mutation CustomerPaymentMethodSendUpdateEmail($customerPaymentMethodId: ID!) {
    customerPaymentMethodSendUpdateEmail(customerPaymentMethodId: $customerPaymentMethodId) {
      customer { id email }
      userErrors { field message }
    }
  }
`

type Payload = {
  customerPaymentMethodSendUpdateEmail: {
    customer: { id: string; email: string | null } | null
    userErrors: Array<{ field: string[] | null; message: string }>
  } | null
}

/** The customer the e-mail went to. */
export async function sendPaymentMethodUpdateEmail(
  client: AdminClient,
  customerPaymentMethodId: string,
): Promise<{ id: string; email: string | null } | null> {
  const data = await client.request<Payload>(
    'CustomerPaymentMethodSendUpdateEmail',
    CUSTOMER_PAYMENT_METHOD_SEND_UPDATE_EMAIL,
    { customerPaymentMethodId },
  )
  return assertNoUserErrors('customerPaymentMethodSendUpdateEmail', data.customerPaymentMethodSendUpdateEmail)
    .customer
}
