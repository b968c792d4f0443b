import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { idFromGid } from '../../platform/gid.ts'
import { fetchCustomersPage, type PlatformCustomer } from '../../platform/operations/customers-page.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import type { PlatformContract } from '../../platform/operations/subscription-contracts-page.ts'
import {
  appendContractEvents,
  type ContractChange,
  lockContract,
  upsertContracts,
} from '../../sync/contracts-repo.ts'
import { linkOriginOrder, upsertCustomers } from '../../sync/mirror-repo.ts'
import { contractRecord, customerRecord, lineRecords } from '../../sync/records.ts'
import {
  type Apply,
  gidFrom,
  nothing,
  requireClient,
  type TopicHandler,
  type WebhookContext,
} from './handler.ts'
import { holdsContractRevision, holdsCustomer } from './repo.ts'

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
    if (record.origin_order_id) await linkOriginOrder(tx, shopId, record.id, record.origin_order_id)
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
    // The mirror already holds the revision the (signed) body names, typically the answer to
    // one of the app's own writes: nothing new to read. Another revision is read as always.
    const revision = ctx.payload.revision_id
    if (gid && (typeof revision === 'string' || typeof revision === 'number')) {
      if (await holdsContractRevision(ctx.db, ctx.shop.id, idFromGid(gid), String(revision))) return nothing
    }
    const contract = gid ? await fetchSubscriptionContract(requireClient(ctx), gid) : null
    if (!contract) return null
    const write = contractWrite(contract)
    const customer = await newCustomer(ctx, contract.customer?.id)
    return async (tx) => {
      await write(tx, ctx.shop.id)
      // After the contract, so the list's name column (customer_display_name) is filled too.
      if (customer) await upsertCustomers(tx, ctx.shop.id, [customerRecord(customer)])
    }
  },
}

/**
 * The contract's customer when the mirror does not hold them yet: a shopper who subscribed at
 * checkout is a new customer, and the sync only reads customers when it runs, so the contract's
 * webhook brings them (one customer read), else the list would show the contract nameless.
 */
async function newCustomer(
  ctx: WebhookContext,
  customerGid: string | undefined,
): Promise<PlatformCustomer | null> {
  if (!customerGid) return null
  const id = idFromGid(customerGid)
  if (await holdsCustomer(ctx.db, ctx.shop.id, id)) return null
  const page = await fetchCustomersPage(requireClient(ctx), { first: 1, query: `id:${id}` })
  return page.nodes.find((c) => c.id === customerGid) ?? null
}
