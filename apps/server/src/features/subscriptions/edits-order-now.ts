import type { CreateOrderNowResponse } from '@teiki/contract'
import { createOrderNowAttempt } from '../../billing/order-now.ts'
import { AppError } from '../../http/app-error.ts'
import { idFromGid, maybeIdFromGid } from '../../platform/gid.ts'
import { platformError, STALE_CONTRACT } from '../../platform/merchant-errors.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { upsertBillingAttempt } from '../../sync/billing-attempts-repo.ts'
import { billingAttemptRecord } from '../../sync/records.ts'
import type { EditDeps, Revisioned } from './edit-rules.ts'

export async function createOrderNow(
  { opts, flow, now }: EditDeps,
  shop: ShopRow,
  input: { contractId: string } & Revisioned,
): Promise<CreateOrderNowResponse> {
  const label = '今すぐ注文の作成'
  const ctx = await flow.read(shop, input.contractId, label)
  if (input.revision !== undefined && input.revision !== String(ctx.current.revisionId)) {
    throw new AppError('CONFLICT', STALE_CONTRACT)
  }
  if (ctx.current.status !== 'ACTIVE') {
    throw new AppError('CONFLICT', '有効な契約のみ今すぐ注文を作成できます')
  }
  // Through the billing engine (issue 5): the contract's current cycle gets a
  // billing_cycles row, so the outcome advances the schedule like a scheduled charge and
  // the daily run does not charge that cycle again. The first attempt's key is still one
  // per contract revision (ADR 0008): a double click or a retry after an unknown outcome
  // returns the same attempt instead of charging twice.
  let started: Awaited<ReturnType<typeof createOrderNowAttempt>>
  try {
    started = await createOrderNowAttempt({
      db: opts.db,
      client: ctx.client,
      shop,
      contract: ctx.current,
      now: now(),
      engine: opts.billing,
    })
  } catch (error) {
    throw platformError(error, label)
  }
  const { attempt } = started
  const edited = await flow.mirror(shop, ctx, {
    event: {
      type: 'order_now_requested',
      payload: {
        billingAttemptId: idFromGid(attempt.id),
        idempotencyKey: attempt.idempotencyKey,
        cycleDate: started.row.cycle_date,
      },
    },
    mirror: async (tx) => {
      await upsertBillingAttempt(tx, shop.id, billingAttemptRecord(attempt, input.contractId))
    },
  })
  return {
    ...edited,
    billingAttemptId: idFromGid(attempt.id),
    ready: attempt.ready,
    orderId: maybeIdFromGid(attempt.order?.id),
    errorMessage: attempt.errorMessage,
  }
}

/** 今すぐ注文の作成: a charge now, through the billing engine's cycle rows. */
export const orderNowEdits = { createOrderNow }
