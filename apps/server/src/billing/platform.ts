// The Admin API operations only billing sends, in one place for the engine and its tests; each
// document lives in platform/operations, one per file, like every other.

export {
  ATTEMPTS_PER_POLL,
  BILLING_ATTEMPTS_BY_ID,
  fetchBillingAttempts,
} from '../platform/operations/billing-attempts-by-id.ts'
export { SUBSCRIPTION_CONTRACT_EXPIRE } from '../platform/operations/subscription-contract-expire.ts'
export { expireSubscriptionContract } from '../platform/operations/subscription-contract-status.ts'
