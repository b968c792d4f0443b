import { type Db, withTransaction } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import type { Mailer } from '../../mail/mailer.ts'
import { maybeIdFromGid, toGid } from '../../platform/gid.ts'
import { fetchBatchVariant } from '../../platform/operations/batch-variant.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { eachLimited } from '../../runs/each-limited.ts'
import { runTracked, type TrackedRun } from '../../runs/tracked-run.ts'
import type { BatchChange } from '../subscriptions/edits-batch.ts'
import type { ContractEdits } from '../subscriptions/edits-service.ts'
import { batchMail, MAIL_LISTED } from './mail.ts'
import { type BatchRow, batchRows, findBatch } from './repo.ts'
import {
  finishBatch,
  markApplying,
  type PendingItem,
  pendingItems,
  recordItem,
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
// Refusals of one contract: reported on its row, the batch goes on.
const PER_CONTRACT = new Set(['PLATFORM_USER_ERROR', 'CONFLICT', 'NOT_FOUND', 'INVALID_INPUT'])

/**
 * Runs a batch to its end, once, resuming where a dead worker left it: the batch is claimed as a
 * tracked run (runs/tracked-run.ts: queued, or running under a process that is gone or silent
 * for 2 minutes); the undecided rows are taken in contract order, `concurrency` at a time, each
 * through the contract edits' batch edit (features/subscriptions/edits-batch.ts), and its
 * decision recorded on its row with the batch's counts. A cancel is seen before each contract
 * starts (looked up at most every 300 ms): what was done stays done, the rest stays pending.
 * The batch's end and its mail are one transaction; the mail is sent after. Platform trouble
 * beyond the client's retries hands the batch back (queued) and throws, so the job queue runs
 * it again later (and the sweep, every minute, while the platform stays down).
 */
export async function runBatch(deps: BatchDeps, shop: ShopRow, batchId: string): Promise<BatchRow | null> {
  const ran = await runTracked({ db: deps.db, rows: batchRows, shopId: shop.id, id: batchId }, (run) =>
    walkBatch(deps, shop, run),
  )
  return ran ? ran.value : findBatch(deps.db, shop.id, batchId)
}

/** The claimed batch's undecided rows, page by page, until none is left or the batch is cancelled. */
async function walkBatch(
  deps: BatchDeps,
  shop: ShopRow,
  run: TrackedRun<BatchRow>,
): Promise<BatchRow | null> {
  const batch = run.row
  const change = await changeOf(deps, shop, batch)
  if ('error' in change) return end(deps, shop, batch.id, 'failed', change.error)
  const width = deps.concurrency ?? DEFAULT_CONCURRENCY
  for (let after = '0'; !run.signal.aborted; ) {
    const items = await pendingItems(deps.db, shop.id, batch.id, after, width * 2)
    if (items.length === 0) break
    await eachLimited(items, width, async (item) => {
      // A cancel stops the contracts not started yet; the ones under way finish.
      if (await run.check()) return
      await decide(deps, shop, batch.id, change, item)
    })
    after = items[items.length - 1]!.contract_id
    await run.check()
  }
  // Taken over by another worker (this one was silent too long): it goes on from the rows.
  run.throwIfLost()
  return end(deps, shop, batch.id, run.signal.aborted ? 'cancelled' : 'done', null)
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
