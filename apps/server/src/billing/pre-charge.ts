import { toGid } from '../platform/gid.ts'
import { type ChargeCheck, fetchChargeCheck } from '../platform/operations/subscription-charge-check.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { refetchContract } from '../sync/contract-refetch.ts'
import type { EngineContext } from './engine-context.ts'
import { mirroredState } from './repo.ts'

// The mirror is checked before each charge (issue 12 item 7): the platform's status, next
// billing date, updatedAt and revision (1 point) against what the mirror holds (updatedAt has
// seconds only, the revision moves with every change). A contract paused,
// cancelled or moved on the platform while its webhook was lost is resynced, not charged.

export type PreCharge =
  | { kind: 'charge'; check: ChargeCheck }
  /** Not charged: the platform no longer has it, or it is not ACTIVE there, or not due then. */
  | { kind: 'skip'; reason: 'gone' | 'not_active' | 'moved'; check: ChargeCheck | null }

const sameInstant = (a: string | Date | null, b: string | Date | null) =>
  a !== null && b !== null && new Date(a).getTime() === new Date(b).getTime()

/**
 * Whether the contract, due at `dueAt` by the mirror, is still due on the platform; for a
 * dunning retry (`dueAt` null) whether it is still ACTIVE or FAILED there. When the platform's
 * state differs from the mirror's in any way (updatedAt), the contract is read and mirrored
 * again first (updatedAt or revision), so what the charge's follow-ups take from the mirror is
 * the platform's.
 */
export async function checkBeforeCharge(
  ctx: EngineContext,
  shop: ShopRow,
  contractId: string,
  dueAt: Date | null,
): Promise<PreCharge> {
  const client = ctx.clientFor(shop)
  const check = await fetchChargeCheck(client, toGid('SubscriptionContract', contractId))
  if (!check) {
    ctx.log.warn({ contract: contractId }, 'due contract is gone on the platform: not charged')
    return { kind: 'skip', reason: 'gone', check }
  }
  const mirrored = await mirroredState(ctx.db, shop.id, contractId)
  const behind =
    !mirrored ||
    !sameInstant(mirrored.updated_at, check.updatedAt) ||
    mirrored.revision_id !== check.revisionId
  if (behind) {
    await refetchContract(ctx.db, client, shop.id, contractId, 'sync')
  }
  const chargeable = check.status === 'ACTIVE' || (dueAt === null && check.status === 'FAILED')
  const reason = !chargeable
    ? 'not_active'
    : dueAt !== null && !sameInstant(check.nextBillingDate, dueAt)
      ? 'moved'
      : null
  if (reason) {
    ctx.log.warn(
      { contract: contractId, reason, status: check.status, nextBillingDate: check.nextBillingDate },
      'the platform disagrees with the mirror: resynced, not charged',
    )
    return { kind: 'skip', reason, check }
  }
  return { kind: 'charge', check }
}
