import { type Db, withTransaction } from '../db/pool.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { toGid } from '../platform/gid.ts'
import { fetchSubscriptionContract } from '../platform/operations/subscription-contract.ts'
import { appendContractEvents, type ContractChange, lockContract, upsertContracts } from './contracts-repo.ts'
import { contractRecord, lineRecords } from './records.ts'

/**
 * Reads one contract from the platform and writes it into the mirror with its status events,
 * under the contract's lock: for a path that found the mirror behind the platform (a lost
 * webhook). The upsert keeps the newer state, so a concurrent webhook is never undone. Null
 * when the platform no longer has the contract (the mirror keeps what it has).
 */
export async function refetchContract(
  db: Db,
  client: AdminClient,
  shopId: string,
  contractId: string,
  source: 'sync' | 'webhook' | 'app' | 'billing',
): Promise<ContractChange[] | null> {
  const contract = await fetchSubscriptionContract(client, toGid('SubscriptionContract', contractId))
  if (!contract) return null
  return withTransaction(db, async (tx) => {
    await lockContract(tx, shopId, contractId)
    const changes = await upsertContracts(tx, shopId, [contractRecord(contract)], lineRecords(contract))
    await appendContractEvents(tx, shopId, source, changes)
    return changes
  })
}
