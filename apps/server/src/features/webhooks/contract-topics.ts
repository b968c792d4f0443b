import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import { appendContractEvents, type ContractChange, upsertContracts } from '../../sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../../sync/records.ts'
import { type Apply, gidFrom, nothing, requireClient, type TopicHandler } from './handler.ts'
import { lockContract } from './repo.ts'

/**
 * Reads the contract's current state from the platform and returns the write that mirrors
 * it. The payload is not used for state: it is a few fields of one moment, while the
 * platform's answer is the newest state, and the upsert's updated_at guard keeps whichever
 * of the stored and fetched rows is newer, so late or repeated deliveries never move the
 * contract backwards.
 */
export async function refreshContract(
  client: AdminClient,
  contractGid: string,
): Promise<(tx: DbClient, shopId: string) => Promise<ContractChange[]>> {
  const contract = await fetchSubscriptionContract(client, contractGid)
  // Gone on the platform (deleted shop data, test clean-up): keep what the mirror has.
  if (!contract) return async () => []
  const record = contractRecord(contract)
  const lines = lineRecords(contract)
  return async (tx, shopId) => {
    await lockContract(tx, shopId, record.id)
    const changes = await upsertContracts(tx, shopId, [record], lines)
    await appendContractEvents(tx, shopId, 'webhook', changes)
    return changes
  }
}

export const contractTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply> {
    const gid = gidFrom(ctx.payload, 'SubscriptionContract')
    if (!gid) return nothing
    const write = await refreshContract(requireClient(ctx), gid)
    return async (tx) => {
      await write(tx, ctx.shop.id)
    }
  },
}
