import { type DbClient, withTransaction } from '../db/pool.ts'
import type { PlatformContract } from '../platform/operations/contract-fragments.ts'
import type { ContractStatusResult } from '../platform/operations/subscription-contract-status.ts'
import type { CommittedContract } from '../platform/operations/subscription-draft.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import {
  appendContractEvent,
  appendContractEvents,
  type ContractChange,
  type ContractPatch,
  lockContract,
  patchContract,
  upsertContracts,
} from '../sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../sync/records.ts'
import type { CycleRow } from './cycles-repo.ts'
import type { EngineContext } from './engine-context.ts'
import type { DecidedMail } from './mail.ts'
import { type CycleSettlement, countRunOutcome, settleCycle } from './repo.ts'

// What settling an outcome shares between success and failure: the contract as the follow-up
// mutations left it, and the one transaction that records the outcome.

/** A history row an outcome appends (`billed`, `billing_failed`, …). */
export type SettlementEvent = { type: string; occurredAt: Date | string; payload: Record<string, unknown> }

/**
 * The contract as read once before the follow-up mutations, with each mutation's answer
 * (status, next billing date, revision, updatedAt; the attributes a draft committed) laid over
 * it: what the mirror gets, without a second 75-point read per charge. The upsert keeps the
 * newer updatedAt, so a webhook that mirrored a later state wins.
 */
export function trackContract(read: PlatformContract | null) {
  let current = read
  const newer = (updatedAt: string) =>
    current !== null && Date.parse(updatedAt) >= Date.parse(current.updatedAt)
  return {
    status(result: ContractStatusResult) {
      if (current && newer(result.updatedAt)) {
        current = {
          ...current,
          status: result.status,
          nextBillingDate: result.nextBillingDate,
          updatedAt: result.updatedAt,
          revisionId: result.revisionId,
        }
      }
    },
    committed(result: CommittedContract, patch: Partial<PlatformContract>) {
      if (current && newer(result.updatedAt)) {
        current = { ...current, ...patch, updatedAt: result.updatedAt, revisionId: result.revisionId }
      }
    },
    contract: () => current,
  }
}

export type TrackedContract = ReturnType<typeof trackContract>

/** How an outcome writes the contract into the mirror, inside its transaction. */
export type MirrorWrite = (tx: DbClient, shopId: string) => Promise<ContractChange[]>

/** The contract as read (and tracked through the follow-ups), upserted whole; nothing for null. */
export const wholeContract =
  (contract: PlatformContract | null): MirrorWrite =>
  async (tx, shopId) =>
    contract ? upsertContracts(tx, shopId, [contractRecord(contract)], lineRecords(contract)) : []

/** The follow-ups' answers laid over the mirrored row (no read of the whole contract). */
export const patchedContract =
  (contractId: string, patch: ContractPatch | null): MirrorWrite =>
  async (tx, shopId) =>
    patch ? patchContract(tx, shopId, contractId, patch) : []

/**
 * The final transaction of an outcome: claims the row's move (false when another path
 * already settled it: then nothing is written), writes the contract into the mirror with its
 * status events, appends the history, counts the run and decides the customer's mail (recorded
 * in mail_outbox with the rest: the caller delivers it after, or the outbox drain does).
 */
export async function commitSettlement(
  ctx: EngineContext,
  shop: ShopRow,
  row: CycleRow,
  mirror: MirrorWrite,
  to: CycleSettlement,
  events: SettlementEvent[],
  statusExtra: Record<string, unknown> = {},
  mail?: DecidedMail,
): Promise<boolean> {
  return withTransaction(ctx.db, async (tx) => {
    await lockContract(tx, shop.id, row.contract_id)
    if (!(await settleCycle(tx, shop.id, row, to))) return false
    const changes = await mirror(tx, shop.id)
    await appendContractEvents(tx, shop.id, 'billing', changes, statusExtra)
    for (const e of events) {
      await appendContractEvent(tx, shop.id, 'billing', { contractId: row.contract_id, ...e })
    }
    if (row.run_id) {
      await countRunOutcome(tx, shop.id, row.run_id, to.status === 'succeeded' ? 'succeeded' : 'failed')
    }
    await mail?.decide(tx)
    return true
  })
}
