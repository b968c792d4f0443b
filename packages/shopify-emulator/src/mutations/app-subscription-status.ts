import type { Runtime } from '../context.ts'
import { DAY } from '../demo-data/schedule.ts'
import type { AppSubscriptionRecord, ShopState } from '../records.ts'
import { appSubscriptionPayload } from '../webhooks/payloads.ts'

/**
 * The app subscription's states and the moves the platform makes between them (2025-04
 * `AppSubscriptionStatus`): a PENDING charge is approved (ACTIVE), declined by the merchant
 * (DECLINED) or not approved within two days (EXPIRED); an ACTIVE one is cancelled (by the app,
 * an uninstall, or a newer plan taking its place) or frozen for non-payment (FROZEN), which
 * resumes (ACTIVE) when the shop pays, or ends (CANCELLED). DECLINED, EXPIRED and CANCELLED are
 * terminal. Every move sends `app_subscriptions/update`, as the platform does.
 */
export const APP_SUBSCRIPTION_TARGETS = ['ACTIVE', 'CANCELLED', 'DECLINED', 'EXPIRED', 'FROZEN'] as const
export type AppSubscriptionTarget = (typeof APP_SUBSCRIPTION_TARGETS)[number]

const MOVES: Readonly<Record<string, readonly AppSubscriptionTarget[]>> = {
  PENDING: ['ACTIVE', 'DECLINED', 'EXPIRED'],
  ACTIVE: ['CANCELLED', 'FROZEN'],
  FROZEN: ['ACTIVE', 'CANCELLED'],
}

export const canMove = (from: string, to: AppSubscriptionTarget) => MOVES[from]?.includes(to) ?? false

type Ctx = { shop: ShopState; runtime: Runtime; now: number }

function set(ctx: Ctx, sub: AppSubscriptionRecord, status: string): void {
  sub.status = status
  sub.updatedAt = ctx.now
  ctx.runtime.emit(ctx.shop, 'app_subscriptions/update', appSubscriptionPayload(ctx.shop, sub))
}

/**
 * Moves `sub` to `to`, or throws (with the move refused) when the platform would not make it.
 * An approval (PENDING → ACTIVE) cancels the plan it replaces first (APPLY_IMMEDIATELY, the
 * platform's default), each with its own webhook.
 */
export function moveAppSubscription(ctx: Ctx, sub: AppSubscriptionRecord, to: AppSubscriptionTarget): void {
  if (!canMove(sub.status, to))
    throw new Error(`app subscription ${sub.id} cannot move from ${sub.status} to ${to}`)
  if (to === 'ACTIVE' && sub.status === 'PENDING') {
    for (const other of ctx.shop.installation.subscriptions)
      if (other !== sub && (other.status === 'ACTIVE' || other.status === 'FROZEN'))
        set(ctx, other, 'CANCELLED')
    sub.currentPeriodEnd = ctx.now + (sub.trialDays + 30) * DAY
  }
  set(ctx, sub, to)
}

/**
 * The subscription a test control means: the one with `id` (GID or number), else the newest
 * that can make the move (the pending charge for DECLINED or EXPIRED, the plan for CANCELLED).
 */
export function subscriptionFor(
  shop: ShopState,
  id: string | number | undefined,
  to: AppSubscriptionTarget,
): AppSubscriptionRecord {
  const subs = shop.installation.subscriptions
  if (id !== undefined) {
    const numeric = typeof id === 'number' ? id : Number(String(id).split('/').pop())
    const found = subs.find((s) => s.id === numeric)
    if (!found) throw new Error(`no app subscription ${id} in ${shop.info.myshopifyDomain}`)
    return found
  }
  const candidate = [...subs].reverse().find((s) => canMove(s.status, to))
  if (!candidate) throw new Error(`no app subscription of ${shop.info.myshopifyDomain} can move to ${to}`)
  return candidate
}
