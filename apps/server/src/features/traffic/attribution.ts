import { attributedTouch } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { withTransaction } from '../../db/pool.ts'
import { attribute, pendingCheckouts, shopsWithPendingCheckouts, touchesOf } from './repo.ts'

/**
 * Attributes the contracts made by tracked checkouts (docs/analytics.md, "attribution rule",
 * the rule itself in packages/domain/src/analytics/attribution.ts). A checkout whose contract
 * is not in the mirror yet (its webhook comes later) waits for the next sweep, up to 2 days.
 * Returns how many checkouts were settled.
 */
export async function attributeShop(db: Db, shopId: string): Promise<number> {
  let settled = 0
  for (const checkout of await pendingCheckouts(db, shopId)) {
    if (!checkout.contract_id) continue
    const touches = (await touchesOf(db, shopId, checkout.client_id, checkout.occurred_at)).map((t) => ({
      source: t.source,
      medium: t.medium,
      campaign: t.campaign,
      content: t.content,
      occurredAt: t.occurred_at,
    }))
    const touch = attributedTouch(touches, checkout.occurred_at)
    await withTransaction(db, (tx) =>
      attribute(tx, shopId, checkout.event_id, {
        contractId: checkout.contract_id!,
        customerId: checkout.customer_id,
        touch,
      }),
    )
    settled += 1
  }
  return settled
}

/** Every shop's pending checkouts (the `traffic-attribution` job, every minute: jobs/traffic-jobs.ts). */
export async function attributeAll(db: Db): Promise<number> {
  let settled = 0
  for (const shopId of await shopsWithPendingCheckouts(db)) settled += await attributeShop(db, shopId)
  return settled
}
