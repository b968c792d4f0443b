import type { ResolverMap } from '../attach-resolvers.ts'
import { appBillingMutations } from './app-billing.ts'
import { appMetafieldMutations } from './app-metafields.ts'
import { billingAttemptMutations } from './billing-attempts.ts'
import { bulkOperationResolvers } from './bulk-operations.ts'
import { contractStatusMutations } from './contract-status.ts'
import { customerMutations } from './customers.ts'
import { deliveryProfileMutations } from './delivery-profiles.ts'
import { draftLineMutations } from './draft-lines.ts'
import { draftMutations } from './drafts.ts'
import { orderMutations } from './orders.ts'
import { refundMutations } from './refunds.ts'
import { sellingPlanGroupMutations } from './selling-plan-groups.ts'
import { validationResolvers } from './validations.ts'
import { webPixelResolvers } from './web-pixels.ts'
import { webhookSubscriptionResolvers } from './webhook-subscriptions.ts'

/** Every map that writes; merged after the read-only ones (resolvers/index.ts). */
export const mutationMaps: ResolverMap[] = [
  contractStatusMutations,
  draftMutations,
  draftLineMutations,
  billingAttemptMutations,
  sellingPlanGroupMutations,
  customerMutations,
  refundMutations,
  orderMutations,
  appBillingMutations,
  appMetafieldMutations,
  bulkOperationResolvers,
  webhookSubscriptionResolvers,
  deliveryProfileMutations,
  webPixelResolvers,
  validationResolvers,
]
