import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'

export const APP_SUBSCRIPTION_CREATE = /* GraphQL */ `
  mutation AppSubscriptionCreate(
    $name: String!
    $lineItems: [AppSubscriptionLineItemInput!]!
    $returnUrl: URL!
    $trialDays: Int
    $test: Boolean
  ) {
    appSubscriptionCreate(
      name: $name
      lineItems: $lineItems
      returnUrl: $returnUrl
      trialDays: $trialDays
      test: $test
    ) {
      appSubscription { id status }
      confirmationUrl
      userErrors { field message }
    }
  }
`

type Payload = {
  appSubscription: { id: string; status: string } | null
  confirmationUrl: string | null
  userErrors: Array<{ field: string[] | null; message: string }>
}

/**
 * Asks the platform for the app's recurring charge: a monthly price in yen and a trial. The
 * merchant approves it at `confirmationUrl`; until then it is PENDING. PlatformUserError when refused.
 */
export async function createAppSubscription(
  client: AdminClient,
  input: {
    name: string
    monthlyPrice: number
    currencyCode: string
    trialDays: number
    returnUrl: string
    test: boolean
  },
): Promise<{ id: string; confirmationUrl: string }> {
  const data = await client.request<{ appSubscriptionCreate: Payload | null }>(
    'AppSubscriptionCreate',
    APP_SUBSCRIPTION_CREATE,
    {
      name: input.name,
      lineItems: [
        {
          plan: {
            appRecurringPricingDetails: {
              interval: 'EVERY_30_DAYS',
              price: { amount: input.monthlyPrice, currencyCode: input.currencyCode },
            },
          },
        },
      ],
      returnUrl: input.returnUrl,
      trialDays: input.trialDays,
      test: input.test,
    },
  )
  const payload = assertNoUserErrors('appSubscriptionCreate', data.appSubscriptionCreate)
  if (!payload.appSubscription || !payload.confirmationUrl) {
    throw new Error('appSubscriptionCreate answered neither a subscription nor userErrors')
  }
  return { id: payload.appSubscription.id, confirmationUrl: payload.confirmationUrl }
}
