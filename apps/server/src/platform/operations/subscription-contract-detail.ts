import type { AdminClient } from '../admin-client.ts'
import type { PlatformContractCore, PlatformDetailLineConnection } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import type { PlatformOrderSummary } from './order-fragments.ts'
import { queryPath, withAllNodes } from './requests.ts'
import type { PlatformDeliveryAddress, PlatformPaymentInstrument } from './shared-fragments.ts'
import { DETAIL_LINES_PAGE_SIZE, fetchDetailLinesPage } from './subscription-contract-detail-lines.ts'

/**
 * Lines of the detail's first read: the spec's 60 (§9). A line with its pricing policy costs
 * about 10 points, so 60 keep the whole detail query near 700 of the 1,000-point cap; a
 * contract with more lines is read on by SUBSCRIPTION_CONTRACT_DETAIL_LINES_PAGE.
 */
export const DETAIL_LINES_FIRST = 60

/**
 * One contract as the detail page shows it: what the mirror does not hold (customer name,
 * orders, billing attempts, manual discounts, payment instrument, each line's pricing policy
 * and discount allocations, the delivery method). The platform is the truth for these, so they
 * are read live.
 */
export const SUBSCRIPTION_CONTRACT_DETAIL = withFragments(/* GraphQL */ `
  query SubscriptionContractDetail($id: ID!) {
    subscriptionContract(id: $id) {
      ...ContractCoreFields
      customer { id displayName email }
      deliveryMethod {
        __typename
        ... on SubscriptionDeliveryMethodShipping { address { ...DeliveryAddressFields } }
        ... on SubscriptionDeliveryMethodPickup {
          pickupOption { title location { name } }
        }
        ... on SubscriptionDeliveryMethodLocalDelivery {
          address { ...DeliveryAddressFields }
          localDeliveryOption { title phone }
        }
      }
      customerPaymentMethod { id instrument { ...PaymentInstrumentFields } }
      discounts(first: 10) {
        nodes { id title usageCount recurringCycleLimit targetType }
      }
      lines(first: ${DETAIL_LINES_FIRST}) {
        nodes { ...DetailLineFields }
        pageInfo { hasNextPage endCursor }
      }
      orders(first: 10, reverse: true) {
        nodes { ...OrderSummaryFields }
      }
      billingAttempts(first: 10, reverse: true) {
        nodes { id createdAt ready errorCode errorMessage nextActionUrl order { id } }
      }
    }
  }
`)

export type PlatformContractDetail = Omit<PlatformContractCore, 'revisionId'> & {
  /** The detail hands it to edits as their expected revision; the platform always has one. */
  revisionId: string
  customer: { id: string; displayName: string; email: string | null } | null
  deliveryMethod:
    | { __typename: 'SubscriptionDeliveryMethodShipping'; address: PlatformDeliveryAddress }
    | {
        __typename: 'SubscriptionDeliveryMethodPickup'
        pickupOption: { title: string | null; location: { name: string } }
      }
    | {
        __typename: 'SubscriptionDeliveryMethodLocalDelivery'
        address: PlatformDeliveryAddress
        localDeliveryOption: { title: string | null; phone: string }
      }
    | null
  customerPaymentMethod: { id: string; instrument: PlatformPaymentInstrument } | null
  discounts: {
    nodes: Array<{
      id: string
      title: string | null
      usageCount: number
      recurringCycleLimit: number | null
      targetType: string
    }>
  }
  lines: PlatformDetailLineConnection
  orders: { nodes: PlatformOrderSummary[] }
  billingAttempts: {
    nodes: Array<{
      id: string
      createdAt: string
      ready: boolean
      errorCode: string | null
      errorMessage: string | null
      nextActionUrl: string | null
      order: { id: string } | null
    }>
  }
}

/**
 * The contract's live detail with every line (read on past the first 60), or null when the
 * platform no longer has it.
 */
export async function fetchSubscriptionContractDetail(
  client: AdminClient,
  id: string,
): Promise<PlatformContractDetail | null> {
  const path = ['subscriptionContract']
  const contract = await queryPath<PlatformContractDetail>(client, SUBSCRIPTION_CONTRACT_DETAIL, { id }, path)
  if (!contract?.lines.pageInfo.hasNextPage) return contract
  const lines = await withAllNodes(contract.lines, (after) =>
    fetchDetailLinesPage(client, { id, first: DETAIL_LINES_PAGE_SIZE, after }),
  )
  return lines && { ...contract, lines }
}
