import { appSubscriptionTopic } from './app-plan-topics.ts'
import { billingAttemptTopic } from './billing-topics.ts'
import { contractTopic } from './contract-topics.ts'
import { customerDeleteTopic, customerTopic } from './customer-topics.ts'
import type { TopicHandler } from './handler.ts'
import { orderCreateTopic, orderUpdateTopic, refundCreateTopic } from './order-topics.ts'
import { sellingPlanGroupDeleteTopic, sellingPlanGroupTopic } from './selling-plan-topics.ts'
import {
  appUninstalledTopic,
  customerDataRequestTopic,
  customerRedactTopic,
  shopRedactTopic,
} from './shop-topics.ts'

/** Every topic Teiki applies; anything else is acknowledged and ignored. */
export const TOPIC_HANDLERS: Readonly<Record<string, TopicHandler>> = {
  'subscription_contracts/create': contractTopic,
  'subscription_contracts/update': contractTopic,
  'subscription_contracts/activate': contractTopic,
  'subscription_contracts/pause': contractTopic,
  'subscription_contracts/cancel': contractTopic,
  'subscription_contracts/fail': contractTopic,
  'subscription_contracts/expire': contractTopic,
  'subscription_billing_attempts/success': billingAttemptTopic,
  'subscription_billing_attempts/failure': billingAttemptTopic,
  'subscription_billing_attempts/challenged': billingAttemptTopic,
  'orders/create': orderCreateTopic,
  'orders/updated': orderUpdateTopic,
  'refunds/create': refundCreateTopic,
  'selling_plan_groups/create': sellingPlanGroupTopic,
  'selling_plan_groups/update': sellingPlanGroupTopic,
  'selling_plan_groups/delete': sellingPlanGroupDeleteTopic,
  'customers/create': customerTopic,
  'customers/update': customerTopic,
  'customers/delete': customerDeleteTopic,
  'app/uninstalled': appUninstalledTopic,
  'app_subscriptions/update': appSubscriptionTopic,
  'customers/data_request': customerDataRequestTopic,
  'customers/redact': customerRedactTopic,
  'shop/redact': shopRedactTopic,
}

/** Topics the app subscribes to (every handled one but the compliance three, which the platform sends unasked). */
export const SUBSCRIBED_TOPICS = Object.keys(TOPIC_HANDLERS).filter(
  (t) => !['customers/data_request', 'customers/redact', 'shop/redact'].includes(t),
)
