import type { AppPlan, PlanResponse } from '@teiki/contract'
import { APP_PLANS, type AppPlanDefinition, appSubscriptionName } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import type { PlatformOptions } from '../../http/app-instance.ts'
import { createAppSubscription } from '../../platform/operations/app-subscription-create.ts'
import {
  type ActiveAppSubscription,
  fetchActiveAppSubscriptions,
} from '../../platform/operations/app-subscriptions.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { findInstalledShop, type ShopRow, updateAppPlan } from '../shops/repo.ts'
import { currentPlan } from '../shops/service.ts'
import { platformError } from '../subscriptions/edit-flow.ts'
import { sharedShopClients } from '../subscriptions/shop-client.ts'
import { insertPlanChange, pendingPlanChanges, settlePlanChanges } from './repo.ts'

const idOf = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1)

/** The plan row the gate reads, from the platform's active subscription. */
export function appPlanRecord(active: ActiveAppSubscription | undefined): AppPlan | null {
  if (!active) return null
  const price = active.lineItems.find((item) => item.plan.pricingDetails.price)?.plan.pricingDetails.price
  return {
    name: active.name,
    status: active.status as AppPlan['status'],
    price: price ?? null,
    trialDays: active.trialDays,
    currentPeriodEnd: active.currentPeriodEnd,
    test: active.test,
  }
}

export function createAppPlanService(db: Db, platform: PlatformOptions) {
  const clients = sharedShopClients(platform)

  /**
   * PUT /plan: the app subscription is created on the platform (PENDING) and the merchant is
   * sent to its confirmationUrl; the platform brings them back to `returnUrl` (the プラン page),
   * where GET /plan finds the approval. A shop flagged `test_shop` gets a test charge (spec §6:
   * nothing is billed).
   */
  async function changePlan(
    shop: ShopRow,
    key: string,
    returnUrl: string,
  ): Promise<{ confirmationUrl: string }> {
    const plan = APP_PLANS.find((p) => p.key === key) as AppPlanDefinition
    const test = await isFlagOn(db, shop.id, 'test_shop')
    let created: { id: string; confirmationUrl: string }
    try {
      created = await createAppSubscription(clients.clientFor(shop), {
        name: appSubscriptionName(plan),
        monthlyPrice: plan.monthlyPrice,
        currencyCode: 'JPY',
        trialDays: plan.trialDays,
        returnUrl,
        test,
      })
    } catch (error) {
      throw platformError(error, 'プランの変更')
    }
    await insertPlanChange(db, shop.id, idOf(created.id), plan.key)
    return { confirmationUrl: created.confirmationUrl }
  }

  /**
   * GET /plan: the stored plan, refreshed from the platform while a plan change waits for the
   * merchant's approval (the return from the confirmation page). A platform that cannot be
   * reached leaves the stored plan (the gate must still answer).
   */
  async function planOf(shop: ShopRow, log: { warn(o: object, m: string): void }): Promise<PlanResponse> {
    const pending = await pendingPlanChanges(db, shop.id)
    if (pending.length === 0) return currentPlan(shop)
    try {
      const active = await fetchActiveAppSubscriptions(clients.clientFor(shop))
      const approved = active.find((s) => pending.some((p) => p.subscription_id === idOf(s.id)))
      if (approved) {
        await updateAppPlan(db, shop.id, appPlanRecord(approved))
        await settlePlanChanges(db, shop.id, idOf(approved.id))
      }
    } catch (error) {
      log.warn({ err: error }, 'app plan refresh failed; answering the stored plan')
    }
    return currentPlan((await findInstalledShop(db, shop.domain)) ?? shop)
  }

  /** A read of the platform for a merchant's screen; failures as the merchant reads them (502, 503). */
  async function read<T>(
    shop: ShopRow,
    label: string,
    fn: (client: ReturnType<typeof clients.clientFor>) => Promise<T>,
  ) {
    try {
      return await fn(clients.clientFor(shop))
    } catch (error) {
      throw platformError(error, label)
    }
  }

  return { changePlan, planOf, read, clients }
}
