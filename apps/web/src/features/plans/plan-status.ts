import type { AppPlan } from '@teiki/contract'

type PlanStatus = AppPlan['status']
type Tone = 'success' | 'critical' | 'info' | 'warning' | 'attention' | undefined

/** Japanese labels and badge tones of the app plan (platform app subscription) statuses. */
export const planStatusLabel: Record<PlanStatus, string> = {
  ACTIVE: '有効',
  PENDING: '承認待ち',
  ACCEPTED: '承認済み',
  DECLINED: '拒否',
  CANCELLED: 'キャンセル済み',
  EXPIRED: '期限切れ',
  FROZEN: '停止中',
}

export const planStatusTone: Record<PlanStatus, Tone> = {
  ACTIVE: 'success',
  PENDING: 'attention',
  ACCEPTED: 'info',
  DECLINED: 'critical',
  CANCELLED: 'warning',
  EXPIRED: undefined,
  FROZEN: 'critical',
}

/** 「14日間」, or 「なし」 for no trial. */
export function trialLabel(trialDays: number | null): string {
  return trialDays && trialDays > 0 ? `${trialDays}日間` : 'なし'
}

/**
 * The contract gives plan prices in minor units of the currency (`"1999"` USD is $19.99) while
 * `formatMoney` takes the amount in major units: shift the decimal point by the currency's
 * minor digits (0 for JPY, so yen amounts pass through unchanged).
 */
export function minorToMajor(minor: string, minorDigits: number): string {
  const text = minor.trim()
  const negative = text.startsWith('-')
  const digits = (negative ? text.slice(1) : text).replace(/^0+(?=\d)/, '')
  if (!/^\d+$/.test(digits)) return text
  if (minorDigits <= 0) return `${negative ? '-' : ''}${digits}`
  const padded = digits.padStart(minorDigits + 1, '0')
  const major = `${padded.slice(0, -minorDigits)}.${padded.slice(-minorDigits)}`
  return `${negative ? '-' : ''}${major}`
}
