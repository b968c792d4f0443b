import type { ContractEditResponse } from '@teiki/contract'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { AppError, notFound } from '../../http/app-error.ts'
import type { AdminClient } from '../../platform/admin-client.ts'
import { toGid } from '../../platform/gid.ts'
import { forMerchant, platformError, STALE_CONTRACT } from '../../platform/merchant-errors.ts'
import type { PlatformContract } from '../../platform/operations/contract-fragments.ts'
import { fetchSubscriptionContract } from '../../platform/operations/subscription-contract.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import {
  appendContractEvent,
  appendContractEvents,
  lockContract,
  upsertContracts,
} from '../../sync/contracts-repo.ts'
import { contractRecord, lineRecords } from '../../sync/records.ts'

export const CONTRACT_NOT_FOUND = '契約が見つかりません'

/** What an edit records in the contract's history (contract_events), besides status moves. */
export type EditEvent = { type: string; payload: Record<string, unknown> }

export type EditContext = {
  client: AdminClient
  gid: string
  /** The contract as the platform has it now (read just before the edit). */
  current: PlatformContract
}

export type EditOutcome = {
  /** History entry for the edit; none when the edit turned out to change nothing. */
  event?: EditEvent
  /** Extra mirror writes in the same transaction as the contract row (app-only fields). */
  mirror?: (tx: DbClient) => Promise<void>
}

export type EditFlowOptions = {
  db: Db
  clients: ShopClients
  log?: { warn: (obj: unknown, msg: string) => void }
  /**
   * The subscriber making the change on マイページ (issue 26): a contract of another customer is
   * "not found" before any platform call, and every history entry says お客様 made it
   * (`actor: 'customer'`). Absent: the merchant (ストア).
   */
  subscriber?: { customerId: string }
}

/** Who made a change, as the history says it: the subscriber (お客様) or the merchant (ストア). */
export type Actor = 'customer' | 'store'

export type EditRequest = {
  contractId: string
  /** The revision the merchant's screen was built from; 409 when the contract moved on. */
  revision?: string | undefined
  /** Japanese name of the edit for messages: 「次回請求日の変更」. */
  label: string
}

export type EditFlow = {
  /** Reads the contract, checks the revision, runs `change` on the platform, then mirrors it. */
  edit(
    shop: ShopRow,
    request: EditRequest,
    change: (ctx: EditContext) => Promise<EditOutcome>,
  ): Promise<ContractEditResponse>
  /** The contract as the platform has it now; 404 when this shop's mirror or the platform lacks it. */
  read(shop: ShopRow, contractId: string, label: string): Promise<EditContext>
  /** Re-reads the contract and writes it, its events and `outcome` to the mirror in one transaction. */
  mirror(shop: ShopRow, ctx: EditContext, outcome: EditOutcome): Promise<ContractEditResponse>
}

/**
 * The path every contract edit takes (issue 4, ADR 0008):
 * 1. the mirror decides whether the shop may touch the contract (404 before any platform call);
 * 2. the platform's current state is read and its revisionId compared with the one the
 *    merchant's screen showed (409 when someone else changed the contract since);
 * 3. the platform mutation runs (userErrors → 422, platform down → 502, mirror untouched);
 * 4. the contract is re-read and written to the mirror with its history entries in one
 *    transaction, under the per-contract lock the webhooks take.
 *
 * A merchant's edit has its request's deadline (http/request-context.ts): the shop's client
 * admits each call — the live read, the draft create, update and commit — only before it, and
 * never after the merchant went away, so an edit given up on is never committed later (503,
 * nothing changed). Each edit commits with its last mutation (one draft commit, or one
 * mutation such as setNextBillingDate), so a deadline between steps leaves at most an
 * uncommitted draft, which changes nothing on the platform: the contract keeps its lines,
 * dates and revision, and the next edit starts a draft of its own.
 */
export function createEditFlow(opts: EditFlowOptions): EditFlow {
  const subscriber = opts.subscriber
  // Written into each history entry of a subscriber's change; a merchant's entries carry none
  // (an app change without an actor is the store's, as every entry before issue 26 is).
  const actor: { actor?: Actor } = subscriber ? { actor: 'customer' } : {}

  async function read(shop: ShopRow, contractId: string, label: string): Promise<EditContext> {
    // A subscriber's change binds the customer too: another customer's contract reads as absent.
    const { rows } = subscriber
      ? await opts.db.query(
          'select 1 from subscription_contracts where shop_id = $1 and id = $2 and customer_id = $3',
          [shop.id, contractId, subscriber.customerId],
        )
      : await opts.db.query('select 1 from subscription_contracts where shop_id = $1 and id = $2', [
          shop.id,
          contractId,
        ])
    if (rows.length === 0) throw notFound(CONTRACT_NOT_FOUND)
    const client = opts.clients.clientFor(shop)
    const gid = toGid('SubscriptionContract', contractId)
    const current = await forMerchant(label, () => fetchSubscriptionContract(client, gid))
    if (!current) throw notFound(CONTRACT_NOT_FOUND)
    return { client, gid, current }
  }

  async function mirror(
    shop: ShopRow,
    ctx: EditContext,
    outcome: EditOutcome,
  ): Promise<ContractEditResponse> {
    let contract: PlatformContract | null = null
    try {
      contract = await fetchSubscriptionContract(ctx.client, ctx.gid)
    } catch (error) {
      // The change is made; the platform's webhook will bring it to the mirror.
      opts.log?.warn({ err: error, contract: ctx.gid }, 'contract re-read after edit failed')
    }
    const after = contract ?? ctx.current
    await withTransaction(opts.db, async (tx) => {
      const record = contractRecord(after)
      await lockContract(tx, shop.id, record.id)
      if (contract) {
        const changes = await upsertContracts(tx, shop.id, [record], lineRecords(contract))
        await appendContractEvents(tx, shop.id, 'app', changes, actor)
      }
      if (outcome.event) {
        const { type, payload } = outcome.event
        await appendContractEvent(tx, shop.id, 'app', {
          contractId: record.id,
          type,
          payload: { ...payload, ...actor },
        })
      }
      await outcome.mirror?.(tx)
    })
    return { contractId: contractIdOf(after), revision: String(after.revisionId), updatedAt: after.updatedAt }
  }

  async function edit(
    shop: ShopRow,
    request: EditRequest,
    change: (ctx: EditContext) => Promise<EditOutcome>,
  ): Promise<ContractEditResponse> {
    const ctx = await read(shop, request.contractId, request.label)
    if (request.revision !== undefined && request.revision !== String(ctx.current.revisionId)) {
      throw new AppError('CONFLICT', STALE_CONTRACT)
    }
    let outcome: EditOutcome
    try {
      outcome = await change(ctx)
    } catch (error) {
      throw platformError(error, request.label)
    }
    return mirror(shop, ctx, outcome)
  }

  return { edit, read, mirror }
}

const contractIdOf = (c: PlatformContract) => c.id.slice(c.id.lastIndexOf('/') + 1)
