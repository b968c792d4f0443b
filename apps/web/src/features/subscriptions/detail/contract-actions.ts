import {
  type CancellationReason,
  type ChurnRequest,
  type SubscriptionDetail,
  ZChurnRequest,
  ZContractActionRequest,
} from '@teiki/contract'
import { api, errorMessage } from '../../../app/api.ts'
import { parseWith } from './contract-edits.ts'
import { type ContractAction, numericId } from './detail-format.ts'
import type { EditUi } from './use-contract-edit.ts'

/**
 * The shop's cancellation reasons in their order. Any failure (the endpoint missing, the
 * network) gives an empty list: the churn form then offers only the free-text reason.
 */
export async function loadCancellationReasons(signal?: AbortSignal): Promise<CancellationReason[]> {
  try {
    const answer = await api('GET /cancellation-reasons', undefined, { signal })
    // Listed by position, then by id, as the reasons page lists them.
    return [...(answer.reasons ?? [])].sort((a, b) => a.position - b.position || Number(a.id) - Number(b.id))
  } catch {
    return []
  }
}

export type ChurnReasonInput = { reasonId: string; reason: string }

const ROUTE = { pause: 'POST /pause', resume: 'POST /resume', churn: 'POST /churn' } as const

const DONE: Record<ContractAction, string> = {
  pause: '契約を一時停止しました',
  resume: '契約を再開しました',
  churn: '契約を解約しました',
}

/**
 * The body of a pause / resume / churn, with the revision the screen showed and, for churn, the
 * chosen reason and the free text (each only when given). Checked with the contract's schema.
 */
export function actionRequest(
  detail: SubscriptionDetail,
  action: ContractAction,
  input: ChurnReasonInput = { reasonId: '', reason: '' },
): { ok: true; body: ChurnRequest } | { ok: false; error: string } {
  const body: ChurnRequest = {
    contractId: detail.contractId,
    customerId: numericId(detail.customer.id),
    revision: detail.revision,
  }
  if (action === 'churn') {
    if (input.reasonId !== '') body.reasonId = input.reasonId
    const text = input.reason.trim()
    if (text !== '') body.reason = text
  }
  const parsed = parseWith(action === 'churn' ? ZChurnRequest : ZContractActionRequest, body)
  return parsed.ok ? { ok: true, body } : { ok: false, error: parsed.error }
}

/**
 * Posts a contract action and reports it with a toast. The detail is reloaded either way: after a
 * failure (409 above all) the status may have moved meanwhile.
 */
export async function runContractAction(
  ui: EditUi,
  body: ChurnRequest,
  action: ContractAction,
): Promise<boolean> {
  try {
    await api(ROUTE[action], { body })
    ui.showToast(DONE[action])
    return true
  } catch (error) {
    ui.showToast(errorMessage(error), { error: true })
    return false
  } finally {
    ui.reload()
  }
}
