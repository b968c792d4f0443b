import type { AdminClient } from '../admin-client.ts'
import { idFromGid } from '../gid.ts'
import type { ContractIdRange } from './subscription-contracts-bulk-query.ts'

/** The shop's lowest and highest contract id: where the first sync splits its export. */
export const SUBSCRIPTION_CONTRACT_ID_RANGE = /* GraphQL */ `
  query SubscriptionContractIdRange {
    lowest: subscriptionContracts(first: 1, sortKey: ID) { nodes { id } }
    highest: subscriptionContracts(first: 1, sortKey: ID, reverse: true) { nodes { id } }
  }
`

type IdRangeAnswer = {
  lowest: { nodes: Array<{ id: string }> }
  highest: { nodes: Array<{ id: string }> }
}

/** The range of the shop's contract ids, or null for a shop without contracts. */
export async function fetchSubscriptionContractIdRange(client: AdminClient): Promise<ContractIdRange | null> {
  const answer = await client.request<IdRangeAnswer>(
    'SubscriptionContractIdRange',
    SUBSCRIPTION_CONTRACT_ID_RANGE,
  )
  const lowest = answer.lowest.nodes[0]
  const highest = answer.highest.nodes[0]
  if (!lowest || !highest) return null
  return { from: Number(idFromGid(lowest.id)), to: Number(idFromGid(highest.id)) }
}
