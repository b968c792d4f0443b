import { z } from 'zod'
import { ZPlatformId, ZText } from './primitives.ts'
import { ZRevision } from './subscription-edits.ts'
import { ZSubscriptionStatus } from './subscriptions.ts'

/** POST /app-admin/pause and /resume (spec §7 contract actions). */
export const ZContractActionRequest = z.object({
  contractId: ZPlatformId('契約ID'),
  customerId: ZPlatformId('顧客ID'),
  /** The revision the screen showed; 409 when the contract changed since (optional). */
  revision: ZRevision,
})
export type ContractActionRequest = z.infer<typeof ZContractActionRequest>

/**
 * POST /app-admin/churn: the same, with an optional cancellation reason: one of the shop's
 * reasons (`reasonId`, GET /cancellation-reasons) or free text (`reason`), stored with the
 * contract. With both, the shop's reason is stored and the text is kept as a comment.
 */
export const ZChurnRequest = ZContractActionRequest.extend({
  reasonId: ZPlatformId('解約理由ID').optional(),
  reason: ZText('解約理由', { max: 500 }).optional(),
})
export type ChurnRequest = z.infer<typeof ZChurnRequest>

export const ZContractActionResponse = z.object({
  contractId: z.string(),
  status: ZSubscriptionStatus,
  /** ISO 8601 instant of the contract's last change on the platform. */
  updatedAt: z.string(),
})
export type ContractActionResponse = z.infer<typeof ZContractActionResponse>
