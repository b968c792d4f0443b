import { describe, expect, it } from 'vitest'
import {
  canMove,
  classifyStatusMove,
  refusedMoveReason,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  upcomingDate,
} from '../src/index.ts'

type Expected = 'noop' | 'move' | 'refused'

// Rows: from; columns: to, in SUBSCRIPTION_STATUSES order (ACTIVE, FAILED, PAUSED, EXPIRED, CANCELLED).
const TABLE: Record<SubscriptionStatus, Expected[]> = {
  ACTIVE: ['noop', 'refused', 'move', 'refused', 'move'],
  FAILED: ['move', 'noop', 'move', 'refused', 'move'],
  PAUSED: ['move', 'refused', 'noop', 'refused', 'move'],
  EXPIRED: ['refused', 'refused', 'refused', 'noop', 'refused'],
  CANCELLED: ['refused', 'refused', 'refused', 'refused', 'noop'],
}

const pairs = SUBSCRIPTION_STATUSES.flatMap((from) =>
  SUBSCRIPTION_STATUSES.map(
    (to, i) => [from, to, TABLE[from][i]!] as [SubscriptionStatus, SubscriptionStatus, Expected],
  ),
)

describe('contract status transitions', () => {
  it('covers all 25 pairs', () => {
    expect(pairs).toHaveLength(25)
  })

  it.each(pairs)('%s → %s is %s', (from, to, expected) => {
    expect(classifyStatusMove(from, to).kind).toBe(expected)
    expect(canMove(from, to)).toBe(expected === 'move')
    const reason = refusedMoveReason(from, to)
    if (expected === 'refused') expect(reason).toMatch(/できません$/)
    else expect(reason).toBeNull()
  })

  it('explains refusals in Japanese', () => {
    expect(refusedMoveReason('CANCELLED', 'ACTIVE')).toBe('解約済みの契約は再開できません')
    expect(refusedMoveReason('EXPIRED', 'PAUSED')).toBe('期限切れの契約は一時停止できません')
    expect(refusedMoveReason('CANCELLED', 'PAUSED')).toBe('解約済みの契約は一時停止できません')
    expect(refusedMoveReason('ACTIVE', 'FAILED')).toBe('有効の契約を決済失敗に変更することはできません')
  })
})

describe('upcomingDate: ended contracts have no next date', () => {
  it.each<[SubscriptionStatus, string | null]>([
    ['ACTIVE', '2026-12-26T01:00:00Z'],
    ['PAUSED', '2026-12-26T01:00:00Z'],
    ['FAILED', '2026-12-26T01:00:00Z'],
    ['CANCELLED', null], // issue 22: a 解約済み contract showed its last planned 次回請求日
    ['EXPIRED', null],
  ])('%s → %j', (status, shown) => {
    expect(upcomingDate(status, '2026-12-26T01:00:00Z')).toBe(shown)
    expect(upcomingDate(status, null)).toBeNull()
  })
})
