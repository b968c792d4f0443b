import { keysOf } from '../format/keys.ts'

/**
 * Contract statuses as the platform reports them, in the order the admin lists them, with the
 * Japanese label a merchant sees for each (spec §3: active, payment failed, paused, expired,
 * cancelled).
 */
export const statusLabel = {
  ACTIVE: '有効',
  FAILED: '決済失敗',
  PAUSED: '一時停止',
  EXPIRED: '期限切れ',
  CANCELLED: '解約済み',
} as const
export type SubscriptionStatus = keyof typeof statusLabel
export const SUBSCRIPTION_STATUSES = keysOf(statusLabel)

/** Polaris badge tones; `undefined` renders the neutral badge. */
export type BadgeTone = 'success' | 'critical' | 'info' | 'warning' | undefined

/**
 * Badge tone per status (spec §3). EXPIRED is neutral because the spec gives it no tone and an
 * expired contract ended as planned: nothing for the merchant to act on.
 */
export const statusTone: Record<SubscriptionStatus, BadgeTone> = {
  ACTIVE: 'success',
  FAILED: 'critical',
  PAUSED: 'info',
  EXPIRED: undefined,
  CANCELLED: 'warning',
}
