import type { AdminClient } from '../admin-client.ts'
import type { PlatformDetailLineConnection } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { type PageOf, queryPath } from './requests.ts'

/** Detail lines per following page: 60 lines with their pricing policies, ~600 points. */
export const DETAIL_LINES_PAGE_SIZE = 60

/** The detail's lines after its first page (contracts of more than 60 lines). */
export const SUBSCRIPTION_CONTRACT_DETAIL_LINES_PAGE = withFragments(/* GraphQL */ `
  query SubscriptionContractDetailLinesPage($id: ID!, $first: Int!, $after: String) {
    subscriptionContract(id: $id) {
      lines(first: $first, after: $after) {
        nodes { ...DetailLineFields }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`)

/** The next page of the detail's lines; null when the platform no longer has the contract. */
export function fetchDetailLinesPage(client: AdminClient, page: PageOf) {
  const document = SUBSCRIPTION_CONTRACT_DETAIL_LINES_PAGE
  return queryPath<PlatformDetailLineConnection>(client, document, page, ['subscriptionContract', 'lines'])
}
