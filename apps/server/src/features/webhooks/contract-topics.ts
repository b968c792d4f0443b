import type { DbClient } from '../../db/pool.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { idFromGid } from '../../platform/gid.ts'
import type { PlatformContract } from '../../platform/operations/contract-fragments.ts'
import type { PlatformCustomer } from '../../platform/operations/customer-fragments.ts'
import { fetchCustomersPage } from '../../platform/operations/customers-page.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import {
  appendContractEvents,
  type ContractChange,
  lockContract,
  upsertContracts,
} from '../../sync/contracts-repo.ts'
import { linkOriginOrder, upsertCustomers } from '../../sync/mirror-repo.ts'
import { contractRecord, customerRecord, lineRecords } from '../../sync/records.ts'
import { type Apply, gidFrom, nothing, requireClient, type TopicHandler } from './handler.ts'
import { heldRevision, holdsCustomer } from './repo.ts'

type ContractWrite = (tx: DbClient, shopId: string) => Promise<ContractChange[]>

/**
 * Reads the contract's current state from the platform and returns the write that mirrors
 * it, with its customer when the mirror does not hold them yet. The payload is not used for
 * state: it is a few fields of one moment, while the platform's answer is the newest state,
 * and the upsert's updated_at guard keeps whichever of the stored and fetched rows is newer,
 * so late, repeated or replayed deliveries (whatever their topic says) never move the contract
 * backwards and append no event. Null when the platform does not have the contract.
 */
export async function readContract(
  db: DbClient,
  client: AdminClient,
  shopId: string,
  contractGid: string,
): Promise<ContractWrite | null> {
  const contract = await fetchSubscriptionContract(client, contractGid)
  if (!contract) return null
  const write = contractWrite(contract)
  const customer = await newCustomer(db, client, shopId, contract.customer?.id)
  return async (tx, shop) => {
    const changes = await write(tx, shop)
    // After the contract, so the list's name column (customer_display_name) is filled too.
    if (customer) await upsertCustomers(tx, shop, [customerRecord(customer)])
    return changes
  }
}

/** readContract for a contract the caller knows is mirrored: nothing to write when it is gone. */
export async function refreshContract(
  db: DbClient,
  client: AdminClient,
  shopId: string,
  contractGid: string,
): Promise<ContractWrite> {
  return (await readContract(db, client, shopId, contractGid)) ?? (async () => [])
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
 * found and nothing is recorded. A body naming the revision the mirror holds, or an older one,
 * is recorded as delivered without a read (the app's own writes mirror their answers); a
 * newer revision of a mirrored contract is read a few seconds later when a job queue runs
 * (deferred.ts: most are the echo of the app's own write, mirrored meanwhile by its writer).
 * A contract the mirror does not hold (a new one from checkout) is read at once.
 */
export const contractTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = gidFrom(ctx.payload, 'SubscriptionContract')
    if (!gid) return null
    const raw = ctx.payload.revision_id
    const revision = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null
    if (revision !== null) {
      const id = idFromGid(gid)
      const held = await heldRevision(ctx.db, ctx.shop.id, id, revision)
      if (held === 'current') return nothing
      const { defer } = ctx
      if (held === 'behind' && defer) {
        return (tx) => defer(tx, { shopId: ctx.shop.id, kind: 'contract', id, revision })
      }
    }
    const write = await readContract(ctx.db, requireClient(ctx), ctx.shop.id, gid)
    if (!write) return null
    return async (tx) => {
      await write(tx, ctx.shop.id)
    }
  },
}

/**
 * The contract's customer when the mirror does not hold them yet: a shopper who subscribed at
 * checkout is a new customer, and the sync only reads customers when it runs, so the contract's
 * webhook brings them (one customer read), else the list would show the contract nameless.
 */
async function newCustomer(
  db: DbClient,
  client: AdminClient,
  shopId: string,
  customerGid: string | undefined,
): Promise<PlatformCustomer | null> {
  if (!customerGid) return null
  const id = idFromGid(customerGid)
  if (await holdsCustomer(db, shopId, id)) return null
  const page = await fetchCustomersPage(client, { first: 1, query: `id:${id}` })
  return page.nodes.find((c) => c.id === customerGid) ?? null
}
