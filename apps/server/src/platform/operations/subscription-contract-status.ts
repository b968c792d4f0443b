import { type AdminClient, assertNoUserErrors } from '../admin-client.ts'
import { SUBSCRIPTION_CONTRACT_ACTIVATE } from './subscription-contract-activate.ts'
import { SUBSCRIPTION_CONTRACT_CANCEL } from './subscription-contract-cancel.ts'
import { SUBSCRIPTION_CONTRACT_EXPIRE } from './subscription-contract-expire.ts'
import { SUBSCRIPTION_CONTRACT_PAUSE } from './subscription-contract-pause.ts'

// Status moves of one contract (each mutation's document is in its own file). Asking for the
// status a contract already has is not an error on the platform, so a retried call (after a
// 5xx whose effect is unknown) is harmless.

export type ContractStatusResult = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  nextBillingDate: string | null
  updatedAt: string
  revisionId: string | null
}

type Payload = {
  contract: ContractStatusResult | null
  userErrors: Array<{ code: string | null; field: string[] | null; message: string }>
} | null

type StatusMutation =
  | 'subscriptionContractPause'
  | 'subscriptionContractActivate'
  | 'subscriptionContractCancel'
  | 'subscriptionContractExpire'

async function statusMove(
  client: AdminClient,
  field: StatusMutation,
  document: string,
  contractId: string,
): Promise<ContractStatusResult> {
  const operation = `${field[0]!.toUpperCase()}${field.slice(1)}`
  const data = await client.request<Record<string, Payload>>(operation, document, { id: contractId })
  const payload = assertNoUserErrors(field, data[field])
  if (!payload.contract) throw new Error(`${field}: no contract returned`)
  return payload.contract
}

/** Pauses a contract (GID); PlatformUserError when the platform refuses (e.g. a cancelled one). */
export function pauseSubscriptionContract(client: AdminClient, contractId: string) {
  return statusMove(client, 'subscriptionContractPause', SUBSCRIPTION_CONTRACT_PAUSE, contractId)
}

/** Activates a contract (GID); PlatformUserError when the platform refuses. */
export function activateSubscriptionContract(client: AdminClient, contractId: string) {
  return statusMove(client, 'subscriptionContractActivate', SUBSCRIPTION_CONTRACT_ACTIVATE, contractId)
}

/** Cancels a contract (GID) for good; PlatformUserError when the platform refuses. */
export function cancelSubscriptionContract(client: AdminClient, contractId: string) {
  return statusMove(client, 'subscriptionContractCancel', SUBSCRIPTION_CONTRACT_CANCEL, contractId)
}

/** Ends a contract that reached its maxCycles (idempotent: an expired contract stays expired). */
export function expireSubscriptionContract(client: AdminClient, contractId: string) {
  return statusMove(client, 'subscriptionContractExpire', SUBSCRIPTION_CONTRACT_EXPIRE, contractId)
}
