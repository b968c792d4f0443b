import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { idFromGid } from '../../platform/gid.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import type { PlatformContract } from '../../platform/operations/subscription-contracts-page.ts'
import {
  appendContractEvents,
  type ContractChange,
  lockContract,
  upsertContracts,
} from '../../sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../../sync/records.ts'
import { type Apply, gidFrom, nothing, requireClient, type TopicHandler } from './handler.ts'
import { holdsContractAtLeast } from './repo.ts'

type ContractWrite = (tx: DbClient, shopId: string) => Promise<ContractChange[]>

/**
 * Reads the contract's current state from the platform and returns the write that mirrors
 * it. The payload is not used for state: it is a few fields of one moment, while the
 * platform's answer is the newest state, and the upsert's updated_at guard keeps whichever
 * of the stored and fetched rows is newer, so late, repeated or replayed deliveries (whatever
 * their topic says) never move the contract backwards and append no event.
 */
export async function refreshContract(client: AdminClient, contractGid: string): Promise<ContractWrite> {
  const contract = await fetchSubscriptionContract(client, contractGid)
  // Gone on the platform (deleted shop data): keep what the mirror has.
  return contract ? contractWrite(contract) : async () => []
}

function contractWrite(contract: PlatformContract): ContractWrite {
  const record = contractRecord(contract)
  const lines = lineRecords(contract)
  return async (tx, shopId) => {
    await lockContract(tx, shopId, record.id)
    const changes = await upsertContracts(tx, shopId, [record], lines)
    await appendContractEvents(tx, shopId, 'webhook', changes)
    return changes
  }
}

/**
 * subscription_contracts/*: read with the header shop's token, another shop's contract is not
 * found and nothing is recorded. A body naming the revision the mirror already holds is
 * recorded as delivered without a read (the app's own writes mirror their answers).
 */
export const contractTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'SubscriptionContract')
    // The mirror already holds the revision the (signed) body names, or a later one: nothing
    // new to read. A revision it does not hold yet is read a few seconds later when a job
    // queue runs (deferred.ts: most are the echo of the app's own write, mirrored meanwhile).
    const raw = ctx.payload.revision_id
    const revision = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null
    if (gid && revision !== null) {
      const id = idFromGid(gid)
      if (await holdsContractAtLeast(ctx.db, ctx.shop.id, id, revision)) return nothing
      const { defer } = ctx
      if (defer) return (tx) => defer(tx, { shopId: ctx.shop.id, kind: 'contract', id, revision })
    }
    const contract = gid ? await fetchSubscriptionContract(requireClient(ctx), gid) : null
    if (!contract) return null
    const write = contractWrite(contract)
    return async (tx) => {
      await write(tx, ctx.shop.id)
    }
  },
}
