import { type AppPlan, ZAppPlan } from '@teiki/contract'
import { holdsPlan, nextPlanRecord } from '@teiki/domain'
import type { AdminClient } from './admin-client.ts'
import { idFromGid, toGid } from './gid.ts'
import { fetchAppSubscription } from './operations/app-subscription.ts'
import type { ActiveAppSubscription } from './operations/app-subscription-fragments.ts'

/** The plan record the app keeps (`shops.app_plan`), from the platform's subscription. */
export function appPlanRecord(sub: ActiveAppSubscription): AppPlan {
  const price = sub.lineItems.find((item) => item.plan.pricingDetails.price)?.plan.pricingDetails.price
  return {
    id: idFromGid(sub.id),
    name: sub.name,
    status: sub.status as AppPlan['status'],
    price: price ?? null,
    trialDays: sub.trialDays,
    currentPeriodEnd: sub.currentPeriodEnd,
    test: sub.test,
  }
}

/** The stored record, or null when there is none (or it is not one the app can read). */
export function storedPlan(value: unknown): AppPlan | null {
  const parsed = ZAppPlan.safeParse(value)
  return parsed.success ? parsed.data : null
}

/**
 * The plan record after a sync read the installation: the active subscription when there is
 * one; else the held plan (active or frozen) read back by its id, since a frozen or cancelled
 * plan is not among the active ones and the record must keep why the shop has no plan; a record
 * without id (stored before ids were kept) cannot be read back and is dropped; a plan already
 * ended keeps its record (the gate's reason).
 */
export async function syncedPlanRecord(
  client: AdminClient,
  stored: AppPlan | null,
  active: ActiveAppSubscription | undefined,
): Promise<AppPlan | null> {
  if (active) return nextPlanRecord(stored, appPlanRecord(active))
  if (!stored || !holdsPlan(stored.status)) return stored
  if (!stored.id) return null
  const read = await fetchAppSubscription(client, toGid('AppSubscription', stored.id))
  return read ? nextPlanRecord(stored, appPlanRecord(read)) : null
}
