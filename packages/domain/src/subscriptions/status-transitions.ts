import { type SubscriptionStatus, statusLabel } from './statuses.ts'

/**
 * Status moves a merchant may ask for, following the platform: a cancelled or expired contract
 * is over (the platform answers CONTRACT_TERMINATED); an active, paused or payment-failed one
 * may be paused, resumed or cancelled. FAILED and EXPIRED are only ever set by the platform
 * (billing and the contract's end), so no move leads to them here.
 */
export const ALLOWED_STATUS_MOVES: Readonly<Record<SubscriptionStatus, readonly SubscriptionStatus[]>> = {
  ACTIVE: ['PAUSED', 'CANCELLED'],
  PAUSED: ['ACTIVE', 'CANCELLED'],
  FAILED: ['ACTIVE', 'PAUSED', 'CANCELLED'],
  CANCELLED: [],
  EXPIRED: [],
}

/** Statuses a contract never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<SubscriptionStatus> = new Set(['CANCELLED', 'EXPIRED'])

export type StatusMove = { kind: 'noop' } | { kind: 'move' } | { kind: 'refused'; reason: string }

/** True when `from → to` is a real move the platform accepts (the same status is not a move). */
export function canMove(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return from !== to && ALLOWED_STATUS_MOVES[from].includes(to)
}

const actionName: Record<SubscriptionStatus, string> = {
  ACTIVE: '再開',
  PAUSED: '一時停止',
  CANCELLED: '解約',
  FAILED: '決済失敗に変更',
  EXPIRED: '期限切れに変更',
}

/** The Japanese reason a move is refused, or null when it is allowed or a no-op. */
export function refusedMoveReason(from: SubscriptionStatus, to: SubscriptionStatus): string | null {
  if (from === to || canMove(from, to)) return null
  if (TERMINAL_STATUSES.has(from)) return `${statusLabel[from]}の契約は${actionName[to]}できません`
  return `${statusLabel[from]}の契約を${actionName[to]}することはできません`
}

/** What asking for `to` on a contract in `from` means: nothing to do, a move, or a refusal. */
export function classifyStatusMove(from: SubscriptionStatus, to: SubscriptionStatus): StatusMove {
  if (from === to) return { kind: 'noop' }
  const reason = refusedMoveReason(from, to)
  return reason === null ? { kind: 'move' } : { kind: 'refused', reason }
}

/**
 * The next billing or delivery date a merchant is shown for a contract: none once it has ended
 * (解約済み, 期限切れ). The platform keeps the last planned date on an ended contract, a date
 * on which nothing will happen, so the list, 契約詳細 and the batch tables show 「—」 instead.
 */
export function upcomingDate<T>(status: SubscriptionStatus, date: T | null | undefined): T | null {
  return TERMINAL_STATUSES.has(status) ? null : (date ?? null)
}
