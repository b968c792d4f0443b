import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { maybeIdFromGid, toGid } from '../../platform/gid.ts'
import { fetchBatchVariant } from '../../platform/operations/batch-variant.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { deadOwners, PROCESS_OWNER } from '../../process/owner.ts'
import type { BatchChange } from '../subscriptions/edits-batch.ts'
import type { ContractEdits } from '../subscriptions/edits-service.ts'
import { batchMail, MAIL_LISTED } from './mail.ts'
import { type BatchRow, findBatch } from './repo.ts'
import {
  claimBatch,
  finishBatch,
  markApplying,
  type PendingItem,
  pendingItems,
  recordItem,
  releaseBatch,
  runningOwners,
  touchBatch,
  unchangedForMail,
} from './run-repo.ts'
import { plansOfGroups } from './variants-repo.ts'

export type BatchDeps = {
  db: Db
  edits: ContractEdits
  clients: ShopClients
  mailer?: Mailer
  log?: { error(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void }
  /** Contracts changed at once (each a few sequential calls; the shop's client paces them all). */
  concurrency?: number
}

const DEFAULT_CONCURRENCY = 16
const HEARTBEAT_MS = 10_000
/** How often a running batch looks for the merchant's cancel between contracts. */
const CANCEL_CHECK_MS = 300
// Refusals of one contract: reported on its row, the batch goes on.
const PER_CONTRACT = new Set(['PLATFORM_USER_ERROR', 'CONFLICT', 'NOT_FOUND', 'INVALID_INPUT'])

/**
 * Runs a batch to its end, once, resuming where a dead worker left it: the batch is claimed
 * (queued, or running under a process that is gone or silent for 2 minutes); the undecided
 * rows are taken in contract order, `concurrency` at a time, each through the contract edits'
 * batch edit (features/subscriptions/edits-batch.ts), and its decision recorded on its row with
 * the batch's counts. A cancel is seen before each contract starts (looked up at most every
 * 300 ms): what was done stays done, the rest stays pending. The batch's end and its mail are
 * one transaction; the mail is sent after. Platform trouble beyond the client's retries hands
 * the batch back (queued) and throws, so the job queue runs it again later (and the sweep,
 * every minute, while the platform stays down).
 */
export async function runBatch(deps: BatchDeps, shop: ShopRow, batchId: string): Promise<BatchRow | null> {
  const { db } = deps
  const dead = deadOwners(await runningOwners(db), { atStart: false })
  const batch = await claimBatch(db, shop.id, batchId, PROCESS_OWNER, dead)
  if (!batch) return findBatch(db, shop.id, batchId)
  let cancel = batch.cancel_requested_at !== null
  const heartbeat = setInterval(() => {
    touchBatch(db, shop.id, batchId).then(
      (t) => {
        cancel ||= t.cancel
      },
      () => {},
    )
  }, HEARTBEAT_MS)
  let checkedAt = Date.now()
  const cancelAsked = async () => {
    if (Date.now() - checkedAt < CANCEL_CHECK_MS) return cancel
    checkedAt = Date.now()
    cancel ||= (await touchBatch(db, shop.id, batchId)).cancel
    return cancel
  }
  try {
    const change = await changeOf(deps, shop, batch)
    if ('error' in change) return await end(deps, shop, batch.id, 'failed', change.error)
    const width = deps.concurrency ?? DEFAULT_CONCURRENCY
    for (let after = '0'; !cancel; ) {
      const items = await pendingItems(db, shop.id, batch.id, after, width * 2)
      if (items.length === 0) break
      await eachAtMost(width, items, async (item) => {
        // A cancel stops the contracts not started yet; the ones under way finish.
        if (cancel || (await cancelAsked())) return
        await decide(deps, shop, batch.id, change, item)
      })
      after = items[items.length - 1]!.contract_id
      cancel ||= (await touchBatch(db, shop.id, batch.id)).cancel
    }
    return await end(deps, shop, batch.id, cancel ? 'cancelled' : 'done', null)
  } catch (error) {
    // Handed back: the job's retry (or the sweep) claims it again and goes on from its rows.
    await releaseBatch(db, shop.id, batch.id).catch(() => {})
    throw error
  } finally {
    clearInterval(heartbeat)
  }
}

/** The change each contract gets; for a swap, the new variant as the platform has it now. */
async function changeOf(
  deps: BatchDeps,
  shop: ShopRow,
  batch: BatchRow,
): Promise<BatchChange | { error: string }> {
  const p = batch.params
  if (batch.kind === 'product-delete') return { kind: 'product-delete', variantId: p.variantId! }
  if (batch.kind === 'next-billing-date-update') {
    return { kind: 'next-billing-date-update', from: p.nextBillingDateFrom!, to: p.nextBillingDateTo! }
  }
  const client = deps.clients.clientFor(shop)
  const variant = await fetchBatchVariant(client, toGid('ProductVariant', p.variantIdTo!))
  if (!variant)
    return { error: '変更後の商品（バリエーション）がストアに見つからないため、一括更新を行いませんでした。' }
  const groups = variant.sellingPlanGroups.nodes.map((g) => maybeIdFromGid(g.id)!)
  return {
    kind: 'product-update',
    from: p.variantIdFrom!,
    to: p.variantIdTo!,
    variant: {
      availableForSale: variant.availableForSale,
      sellingPlanIds: new Set(await plansOfGroups(deps.db, shop.id, groups)),
    },
  }
}

async function decide(
  deps: BatchDeps,
  shop: ShopRow,
  batchId: string,
  change: BatchChange,
  item: PendingItem,
) {
  const { db } = deps
  const contractId = item.contract_id
  try {
    const outcome = await deps.edits.batchEdit(shop, contractId, {
      batchId,
      change,
      attempted: item.attempted,
      beforeApply: () => markApplying(db, shop.id, batchId, contractId),
    })
    const reason = outcome.result === 'skipped' ? outcome.reason : null
    await recordItem(db, shop.id, batchId, contractId, outcome.result, reason)
  } catch (error) {
    if (!(error instanceof AppError) || !PER_CONTRACT.has(error.code)) throw error
    await recordItem(db, shop.id, batchId, contractId, 'failed', error.message)
  }
}

/** Runs `work` on every item, at most `width` at once; the first failure is thrown after the rest settle. */
async function eachAtMost<T>(width: number, items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failure: unknown = null
  const lane = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++]!
      await work(item).catch((error) => {
        failure ??= error
      })
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane))
  if (failure !== null) throw failure
}

/** Ends the batch and decides its mail in one transaction, then sends the mail. */
export async function end(
  deps: BatchDeps,
  shop: ShopRow,
  batchId: string,
  status: 'done' | 'cancelled' | 'failed',
  error: string | null,
): Promise<BatchRow | null> {
  const { db, mailer } = deps
  const { ended, mailId } = await withTransaction(db, async (tx) => {
    const ended = await finishBatch(tx, shop.id, batchId, status, error)
    if (!ended || !mailer) return { ended, mailId: null }
    const mail = batchMail(
      shop,
      { ...ended, status },
      await unchangedForMail(tx, shop.id, batchId, MAIL_LISTED),
    )
    return { ended, mailId: mail ? await mailer.enqueue(tx, mail) : null }
  })
  if (mailId && mailer) {
    const [result] = await mailer.deliver([mailId])
    if (result && result.status !== 'sent' && result.status !== 'stored') {
      deps.log?.error(
        { batchId, mailId, error: result.error },
        'batch mail not sent yet (the outbox retries)',
      )
    }
  }
  return ended ?? findBatch(db, shop.id, batchId)
}
