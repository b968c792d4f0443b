import type { AdminClient } from '../admin-client.ts'
import type { PlatformContract, PlatformContractLine, PlatformLineConnection } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { type PageOf, queryPath, withAllNodes } from './requests.ts'

/**
 * Lines read per page after a contract's first CONTRACT_LINES_FIRST: the 60 of spec §9 (the
 * platform's own page of contract lines). A line costs about 3 points: ~180 a page.
 */
export const CONTRACT_LINES_PAGE_SIZE = 60

/** The rest of one contract's lines, read on from the first page's end cursor. */
export const SUBSCRIPTION_CONTRACT_LINES_PAGE = withFragments(/* GraphQL */ `
  query SubscriptionContractLinesPage($id: ID!, $first: Int!, $after: String) {
    subscriptionContract(id: $id) {
      lines(first: $first, after: $after) {
        nodes { ...LineFields }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
`)

/** The next page of a contract's lines; null when the platform no longer has the contract. */
export function fetchSubscriptionContractLinesPage(client: AdminClient, page: PageOf) {
  const path = ['subscriptionContract', 'lines']
  return queryPath<PlatformLineConnection>(client, SUBSCRIPTION_CONTRACT_LINES_PAGE, page, path)
}

/**
 * The contract with every line: the first page as read, then the following pages. Null when
 * the contract went away between the pages (what the caller read is then stale anyway).
 */
export async function withAllLines<C extends PlatformContract>(
  client: AdminClient,
  contract: C,
): Promise<C | null> {
  if (!contract.lines.pageInfo.hasNextPage) return contract
  const lines = await withAllNodes<PlatformContractLine>(contract.lines, (after) =>
    fetchSubscriptionContractLinesPage(client, { id: contract.id, first: CONTRACT_LINES_PAGE_SIZE, after }),
  )
  return lines && { ...contract, lines }
}
