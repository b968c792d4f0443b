import type { AdminClient } from '../admin-client.ts'
import type { PlatformContract } from './contract-fragments.ts'
import { withFragments } from './fragments.ts'
import { queryPath } from './requests.ts'
import { withAllLines } from './subscription-contract-lines-page.ts'

/**
 * One contract's current state, for webhooks: their payloads carry only a few fields, so the
 * mirror is refreshed from this. It asks for the sync page's fragment, so both paths write
 * identical rows.
 */
export const SUBSCRIPTION_CONTRACT = withFragments(/* GraphQL */ `
  query SubscriptionContract($id: ID!) {
    subscriptionContract(id: $id) { ...ContractWithFirstLines }
  }
`)

/** The contract with all its lines (paged past the first 20), or null when the platform no longer has it. */
export async function fetchSubscriptionContract(
  client: AdminClient,
  id: string,
): Promise<PlatformContract | null> {
  const contract = await queryPath<PlatformContract>(client, SUBSCRIPTION_CONTRACT, { id }, [
    'subscriptionContract',
  ])
  return contract && withAllLines(client, contract)
}
