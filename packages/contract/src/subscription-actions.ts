import { z } from 'zod'
import { ZSubscriptionStatus } from './subscriptions.ts'

const ZNumericId = (label: string) =>
  z.string({ error: `${label}を指定してください` }).regex(/^\d{1,20}$/, `${label}は数字で指定してください`)

/** POST /app-admin/pause and /resume (spec §7 contract actions). */
export const ZContractActionRequest = z.object({
  contractId: ZNumericId('契約ID'),
  customerId: ZNumericId('顧客ID'),
  /** The revision the screen showed; 409 when the contract changed since (optional). */
  revision: z
    .string()
    .regex(/^\d{1,20}$/, 'revision は数字で指定してください')
    .optional(),
})
export type ContractActionRequest = z.infer<typeof ZContractActionRequest>

/**
 * POST /app-admin/churn: the same, with an optional cancellation reason: one of the shop's
 * reasons (`reasonId`, GET /cancellation-reasons) or free text (`reason`), stored with the
 * contract. With both, the shop's reason is stored and the text is kept as a comment.
 */
export const ZChurnRequest = ZContractActionRequest.extend({
  reasonId: ZNumericId('解約理由ID').optional(),
  reason: z.string().trim().max(500, '解約理由は500文字以内で入力してください').optional(),
})
export type ChurnRequest = z.infer<typeof ZChurnRequest>

export const ZContractActionResponse = z.object({
  contractId: z.string(),
  status: ZSubscriptionStatus,
  /** ISO 8601 instant of the contract's last change on the platform. */
  updatedAt: z.string(),
})
export type ContractActionResponse = z.infer<typeof ZContractActionResponse>
