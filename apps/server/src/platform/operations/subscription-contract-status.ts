import type { AdminClient } from '../admin-client.ts'
import type { PlatformContractStatus } from './contract-fragments.ts'
import { mutateReturning } from './requests.ts'
import { SUBSCRIPTION_CONTRACT_ACTIVATE } from './subscription-contract-activate.ts'
import { SUBSCRIPTION_CONTRACT_CANCEL } from './subscription-contract-cancel.ts'
import { SUBSCRIPTION_CONTRACT_EXPIRE } from './subscription-contract-expire.ts'
import { SUBSCRIPTION_CONTRACT_PAUSE } from './subscription-contract-pause.ts'

// Status moves of one contract (each mutation's document is in its own file). Asking for the
// status a contract already has is not an error on the platform, so a retried call (after a
// 5xx whose effect is unknown) is harmless.

/** The contract as a status move answers it. */
export type ContractStatusResult = PlatformContractStatus

/** Sends one status move for the contract (GID) and answers the contract as it now is. */
const statusMove = (document: string) => (client: AdminClient, contractId: string) =>
  mutateReturning<ContractStatusResult>(client, document, { id: contractId }, 'contract')

/** Pauses a contract; PlatformUserError when the platform refuses (e.g. a cancelled one). */
export const pauseSubscriptionContract = statusMove(SUBSCRIPTION_CONTRACT_PAUSE)

/** Activates a contract; PlatformUserError when the platform refuses. */
export const activateSubscriptionContract = statusMove(SUBSCRIPTION_CONTRACT_ACTIVATE)

/** Cancels a contract for good; PlatformUserError when the platform refuses. */
export const cancelSubscriptionContract = statusMove(SUBSCRIPTION_CONTRACT_CANCEL)

/** Ends a contract that reached its maxCycles (idempotent: an expired contract stays expired). */
export const expireSubscriptionContract = statusMove(SUBSCRIPTION_CONTRACT_EXPIRE)
