import type { AppPlan, AppPlanKey, PlanResponse } from '@teiki/contract'
import { appPlanByKey, appSubscriptionName, nextPlanRecord } from '@teiki/domain'
import { type Db, type DbClient, withTransaction } from '../../db/pool.ts'
import { appPlanRecord, storedPlan } from '../../platform/app-plan-record.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchAppHandle } from '../../platform/operations/app-handle.ts'
import { createAppSubscription } from '../../platform/operations/app-subscription-create.ts'
import { fetchActiveAppSubscriptions } from '../../platform/operations/app-subscriptions.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import {
  findInstalledShop,
  isPartnerDevelopment,
  lockAppPlan,
  type ShopRow,
  updateAppPlan,
} from '../../platform/shops-repo.ts'
import { isFlagOn } from '../shop-flags/service.ts'
import { currentPlan } from '../shops/service.ts'
import { endPlanChange, insertPlanChange, pendingPlanChanges, settlePlanChanges } from './repo.ts'

const idOf = (gid: string) => gid.slice(gid.lastIndexOf('/') + 1)

/**
 * The platform reported one subscription's state (an `app_subscriptions/update` re-read, the
 * return from the approval page): the shop's plan record follows the rule of domain
 * `nextPlanRecord` (under the shop row's lock, so deliveries of one shop apply one at a time),
 * and the plan change the app asked for is settled, declined or expired with it.
 */
export async function recordReportedPlan(tx: DbClient, shopId: string, reported: AppPlan): Promise<void> {
  const stored = storedPlan(await lockAppPlan(tx, shopId))
  const next = nextPlanRecord(stored, reported)
  if (next !== stored) await updateAppPlan(tx, shopId, next)
  if (!reported.id) return
  if (reported.status === 'ACTIVE') await settlePlanChanges(tx, shopId, reported.id)
  else if (reported.status === 'DECLINED') await endPlanChange(tx, shopId, reported.id, 'declined')
  else if (reported.status === 'EXPIRED') await endPlanChange(tx, shopId, reported.id, 'expired')
}

/** The store's admin address for the app's page (`/app-handle`): where the mobile app returns. */
export const adminAppUrl = (shopDomain: string, handle: string, path: string) =>
  `https://admin.shopify.com/store/${shopDomain.replace(/\.myshopify\.com$/, '')}/apps/${handle}${path}`

export function createAppPlanService(db: Db, clients: ShopClients) {
  /**
   * PUT /plan: the app subscription is created on the platform (PENDING) and the merchant is
   * sent to its confirmationUrl; the platform brings them back to `returnUrl` (the プラン page),
   * where GET /plan finds the approval (the webhook records it too). `mobile`: the merchant is in
   * the platform's mobile app, which opens the admin's address of the app, not the app's own
   * page (outside the admin it has no session there). A test shop (flag) or a development store
   * gets a test charge (nothing is billed; a development store takes no other).
   */
  async function changePlan(
    shop: ShopRow,
    key: AppPlanKey,
    opts: { returnUrl: string; mobile: boolean },
  ): Promise<{ confirmationUrl: string }> {
    const plan = appPlanByKey(key)
    const client = clients.clientFor(shop)
    const [testShop, development] = await Promise.all([
      isFlagOn(db, shop.id, 'test_shop'),
      isPartnerDevelopment(db, shop.id),
    ])
    let created: { id: string; confirmationUrl: string }
    try {
      const returnUrl = opts.mobile
        ? adminAppUrl(shop.domain, (await fetchAppHandle(client)) ?? 'teiki', '/plans')
        : opts.returnUrl
      created = await createAppSubscription(client, {
        name: appSubscriptionName(plan),
        monthlyPrice: plan.monthlyPrice,
        currencyCode: 'JPY',
        trialDays: plan.trialDays,
        returnUrl,
        test: testShop || development,
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
   * reached leaves the stored plan (the page must still answer).
   */
  async function planOf(shop: ShopRow, log: { warn(o: object, m: string): void }): Promise<PlanResponse> {
    const pending = await pendingPlanChanges(db, shop.id)
    if (pending.length > 0) {
      try {
        const active = await fetchActiveAppSubscriptions(clients.clientFor(shop))
        const approved = active.find((s) => pending.some((p) => p.subscription_id === idOf(s.id)))
        if (approved)
          await withTransaction(db, (tx) => recordReportedPlan(tx, shop.id, appPlanRecord(approved)))
      } catch (error) {
        log.warn({ err: error }, 'app plan refresh failed; answering the stored plan')
      }
    }
    // The shop row read again, not the request's: the app_subscriptions/update webhook may have
    // settled the change (no change pending any more) after the request read the row.
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
