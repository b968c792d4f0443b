import { describe, expect, it } from 'vitest'
import {
  type BadgeTone,
  SUBSCRIPTION_STATUSES,
  type SubscriptionStatus,
  statusLabel,
  statusTone,
} from '../src/index.ts'

describe('subscription statuses', () => {
  it('lists the five platform statuses in order', () => {
    expect(SUBSCRIPTION_STATUSES).toEqual(['ACTIVE', 'FAILED', 'PAUSED', 'EXPIRED', 'CANCELLED'])
  })

  it.each<[SubscriptionStatus, string, BadgeTone]>([
    ['ACTIVE', '有効', 'success'],
    ['FAILED', '決済失敗', 'critical'],
    ['PAUSED', '一時停止', 'info'],
    ['EXPIRED', '期限切れ', undefined], // spec gives no tone: neutral badge
    ['CANCELLED', '解約済み', 'warning'],
  ])('%s is labelled %s with tone %s', (status, label, tone) => {
    expect(statusLabel[status]).toBe(label)
    expect(statusTone[status]).toBe(tone)
  })

  it('has a distinct label for every status', () => {
    const labels = SUBSCRIPTION_STATUSES.map((s) => statusLabel[s])
    expect(new Set(labels).size).toBe(SUBSCRIPTION_STATUSES.length)
  })
})
