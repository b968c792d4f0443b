import { appPlanRecord } from '../../platform/app-plan-record.ts'
import { fetchAppSubscription } from '../../platform/operations/app-subscription.ts'
import { recordReportedPlan } from '../app-plan/service.ts'
import { type Apply, type Payload, requireClient, type TopicHandler } from './handler.ts'

/**
 * app_subscriptions/update: the app's plan changed on the platform (approved, declined,
 * expired, cancelled, frozen, resumed). The subscription is read back with the header shop's
 * token (never the body's status: a delivery may be late or replayed, and the read answers
 * the state now); one this shop's app does not have is ignored. The app's record follows the
 * rule of domain `nextPlanRecord`, so the page gate and the plan features see it on the next
 * request (ADR 0029).
 */
export const appSubscriptionTopic: TopicHandler = {
  async prepare(ctx): Promise<Apply | null> {
    const gid = (ctx.payload.app_subscription as Payload).admin_graphql_api_id as string
    const subscription = await fetchAppSubscription(requireClient(ctx), gid)
    if (!subscription) {
      ctx.log.info(
        { shop: ctx.shop.domain, gid },
        'app_subscriptions/update for a subscription the shop does not have',
      )
      return null
    }
    const record = appPlanRecord(subscription)
    return (tx) => recordReportedPlan(tx, ctx.shop.id, record)
  },
}
