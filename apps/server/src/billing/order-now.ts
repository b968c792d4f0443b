import { toZonedDate } from '@teiki/domain'
import type { Db } from '../db/pool.ts'
import { AppError } from '../http/app-error.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { idFromGid, toGid } from '../platform/gid.ts'
import type { PlatformContract } from '../platform/operations/contract-fragments.ts'
import { fetchSubscriptionBillingAttempt } from '../platform/operations/subscription-billing-attempt.ts'
import type { CreatedBillingAttempt } from '../platform/operations/subscription-billing-attempt-create.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { startAttempt } from './charge.ts'
import { type CycleRow, claimCycle, claimRetry, findCycle, recordRefusal } from './cycles-repo.ts'
import type { BillingEngine } from './engine.ts'

/** What "create order now" asks of the app's billing engine (absent in a bare script: the charge is still made). */
export type OrderNowEngine = Pick<BillingEngine, 'settledLate' | 'priceCharge' | 'watch'>

export type OrderNowAttempt = {
  row: CycleRow
  attempt: CreatedBillingAttempt
}

/**
 * "Create order now" (POST /app-admin/create-order-now) through the billing engine's path: it
 * charges the contract's current cycle (the shop-local date of its next billing date, or today
 * when it has none) through a billing_cycles row, so its success advances the schedule like a
 * scheduled charge and the daily run will not charge the cycle again. The first attempt keeps
 * ADR 0008's key (`order-now-{contract}-{revision}`): a double click or a retry after an
 * unknown outcome finds the same row and the same platform attempt. A cycle in dunning is
 * retried now (its next attempt, with that attempt's billing: key).
 */
export async function createOrderNowAttempt(input: {
  db: Db
  client: AdminClient
  shop: ShopRow
  contract: PlatformContract
  now: Date
  engine?: OrderNowEngine | undefined
}): Promise<OrderNowAttempt> {
  const { db, client, shop, contract, engine } = input
  const contractId = idFromGid(contract.id)
  const dueAt = contract.nextBillingDate ? new Date(contract.nextBillingDate) : input.now
  const cycleDate = toZonedDate(dueAt, shop.iana_timezone)
  const claim = await claimCycle(db, {
    shopId: shop.id,
    contractId,
    cycleDate,
    dueAt,
    origin: 'order_now',
    idempotencyKey: `order-now-${contractId}-${contract.revisionId}`,
    runId: null,
  })
  let row = claim.row
  if (claim.kind === 'existing') {
    // A 3-D Secure challenge that expired may have been completed since: then it is paid.
    if (row.status === 'retry_scheduled' && (await engine?.settledLate(shop, row.id))) {
      row = (await findCycle(db, shop.id, row.id)) ?? row
    }
    if (row.status === 'retry_scheduled') {
      const retried = await claimRetry(db, {
        shopId: shop.id,
        cycleId: row.id,
        attemptNo: row.attempt_no,
        runId: null,
      })
      if (!retried) throw busy(cycleDate)
      row = retried
    } else if (row.status === 'attempting' || row.status === 'challenged' || row.status === 'succeeded') {
      // The same charge again (double click, the click after it succeeded, or while the
      // customer's 3-D Secure is awaited: no second charge): its attempt.
      const attempt = row.attempt_id
        ? await fetchSubscriptionBillingAttempt(client, toGid('SubscriptionBillingAttempt', row.attempt_id))
        : null
      if (!attempt) throw busy(cycleDate)
      return { row, attempt }
    } else {
      throw new AppError(
        'CONFLICT',
        `この契約の ${cycleDate} の請求は再試行の上限に達して終了しています。次回請求日を変更してから操作してください`,
      )
    }
  }
  // A new cycle: its lines onto their pricing policies first (as a scheduled charge).
  // The contract was just read live: it is the check the mirror's pricing policies are held to.
  if (claim.kind === 'new') {
    const { id, status, nextBillingDate, updatedAt, revisionId } = contract
    await engine?.priceCharge(shop, row, {
      id,
      status,
      nextBillingDate,
      updatedAt,
      revisionId,
    })
  }
  const started = await startAttempt(db, client, row)
  if (started.kind === 'refused') {
    await recordRefusal(db, row, started)
    throw new AppError(
      'PLATFORM_USER_ERROR',
      `Shopify が今すぐ注文の作成を受け付けませんでした: ${started.message}`,
    )
  }
  await engine?.watch(shop.id, started.row)
  return { row: started.row, attempt: started.attempt }
}

const busy = (cycleDate: string) =>
  new AppError(
    'CONFLICT',
    `この契約の ${cycleDate} の請求は処理中です。しばらくしてから画面を再読み込みしてください`,
  )
