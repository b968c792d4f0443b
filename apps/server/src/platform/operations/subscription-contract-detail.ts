import type { AdminClient } from '../admin-client.ts'
import { DETAIL_LINES_PAGE_SIZE, fetchDetailLinesPage } from './subscription-contract-detail-lines.ts'
import {
  DETAIL_LINE_SELECTION,
  type PlatformDetailLineConnection,
} from './subscription-line-detail-selection.ts'

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
export const SUBSCRIPTION_CONTRACT_DETAIL = /* GraphQL */ `
  query SubscriptionContractDetail($id: ID!) {
    subscriptionContract(id: $id) {
      id
      status
      revisionId
      createdAt
      updatedAt
      nextBillingDate
      currencyCode
      note
      lastPaymentStatus
      customer { id displayName email }
      billingPolicy { interval intervalCount minCycles maxCycles anchors { day month type cutoffDay } }
      deliveryPrice { amount currencyCode }
      customAttributes { key value }
      originOrder { id }
      deliveryMethod {
        __typename
        ... on SubscriptionDeliveryMethodShipping {
          address { address1 address2 city province zip countryCode firstName lastName phone }
        }
        ... on SubscriptionDeliveryMethodPickup {
          pickupOption { title location { name } }
        }
        ... on SubscriptionDeliveryMethodLocalDelivery {
          address { address1 address2 city province zip countryCode firstName lastName phone }
          localDeliveryOption { title phone }
        }
      }
      customerPaymentMethod {
        id
        instrument {
          __typename
          ... on CustomerCreditCard { brand lastDigits expiryMonth expiryYear isRevocable }
          ... on CustomerPaypalBillingAgreement { paypalAccountEmail }
          ... on CustomerShopPayAgreement { name }
        }
      }
      discounts(first: 10) {
        nodes { id title usageCount recurringCycleLimit targetType }
      }
      lines(first: ${DETAIL_LINES_FIRST}) {
        nodes ${DETAIL_LINE_SELECTION}
        pageInfo { hasNextPage endCursor }
      }
      orders(first: 10, reverse: true) {
        nodes { id name createdAt test cancelledAt totalPriceSet { shopMoney { amount currencyCode } } }
      }
      billingAttempts(first: 10, reverse: true) {
        nodes { id createdAt ready errorCode errorMessage nextActionUrl order { id } }
      }
    }
  }
`

type Money = { amount: string; currencyCode: string }
type DeliveryAddress = {
  address1: string | null
  address2: string | null
  city: string | null
  province: string | null
  zip: string | null
  countryCode: string | null
  firstName: string | null
  lastName: string | null
  phone: string | null
}
type Anchor = { day: number | null; month: number | null; type: string; cutoffDay: number | null }

export type PlatformContractDetail = {
  id: string
  status: string
  revisionId: string
  createdAt: string
  updatedAt: string
  nextBillingDate: string | null
  currencyCode: string
  note: string | null
  lastPaymentStatus: string | null
  customer: { id: string; displayName: string; email: string | null } | null
  billingPolicy: {
    interval: string
    intervalCount: number
    minCycles: number | null
    maxCycles: number | null
    anchors: Anchor[]
  }
  deliveryPrice: Money | null
  customAttributes: Array<{ key: string; value: string | null }>
  originOrder: { id: string } | null
  deliveryMethod:
    | { __typename: 'SubscriptionDeliveryMethodShipping'; address: DeliveryAddress }
    | {
        __typename: 'SubscriptionDeliveryMethodPickup'
        pickupOption: { title: string | null; location: { name: string } }
      }
    | {
        __typename: 'SubscriptionDeliveryMethodLocalDelivery'
        address: DeliveryAddress
        localDeliveryOption: { title: string | null; phone: string }
      }
    | null
  customerPaymentMethod: {
    id: string
    instrument:
      | {
          __typename: 'CustomerCreditCard'
          brand: string
          lastDigits: string
          expiryMonth: number
          expiryYear: number
          isRevocable: boolean
        }
      | { __typename: 'CustomerPaypalBillingAgreement'; paypalAccountEmail: string | null }
      | { __typename: 'CustomerShopPayAgreement'; name: string }
      | null
  } | null
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
  orders: {
    nodes: Array<{
      id: string
      name: string
      createdAt: string
      test: boolean
      cancelledAt: string | null
      totalPriceSet: { shopMoney: Money }
    }>
  }
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
  const data = await client.request<{ subscriptionContract: PlatformContractDetail | null }>(
    'SubscriptionContractDetail',
    SUBSCRIPTION_CONTRACT_DETAIL,
    { id },
  )
  const contract = data.subscriptionContract
  if (!contract?.lines.pageInfo.hasNextPage) return contract
  const nodes = [...contract.lines.nodes]
  for (let info = contract.lines.pageInfo; info.hasNextPage; ) {
    const page = await fetchDetailLinesPage(client, {
      id,
      first: DETAIL_LINES_PAGE_SIZE,
      after: info.endCursor,
    })
    if (!page) return null
    nodes.push(...page.nodes)
    info = page.pageInfo
  }
  return { ...contract, lines: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } }
}
