import type { AppPlan } from '@teiki/contract'

type PlanStatus = AppPlan['status']
type Tone = 'success' | 'critical' | 'info' | 'warning' | 'attention' | undefined

/** Japanese labels and badge tones of the app plan (platform app subscription) statuses. */
export const planStatusLabel: Record<PlanStatus, string> = {
  ACTIVE: '有効',
  PENDING: '承認待ち',
  ACCEPTED: '承認済み',
  DECLINED: '拒否',
  CANCELLED: '解約済み',
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
