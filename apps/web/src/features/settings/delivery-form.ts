import type { DeliverySettingsBody } from '@teiki/contract'
import { formatDateJa, parseTypedDate } from '@teiki/domain'

/** 配送設定 as typed: numbers and dates as text, the extra days as rows. */
export type DeliveryDraft = {
  carrier: string
  leadDays: string
  horizonDays: string
  cutoff: string
  closedYearEnd: boolean
  /** One day a line, as the merchant types it (2027年5月3日, 2027/5/3 …). */
  closedDates: string
  extra: Array<{ prefecture: string; days: string }>
}

export function toDeliveryDraft(s: DeliverySettingsBody): DeliveryDraft {
  return {
    carrier: s.carrier,
    leadDays: String(s.leadDays),
    horizonDays: String(s.horizonDays),
    cutoff: s.cutoff,
    closedYearEnd: s.closedYearEnd,
    closedDates: s.closedDates.map((d) => formatDateJa(d)).join('\n'),
    extra: Object.entries(s.extraDaysByPrefecture)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([prefecture, days]) => ({ prefecture, days: String(days) })),
  }
}

/**
 * What PUT /delivery-settings takes, or the line the merchant must fix: a closed day that is
 * not a day is named here, before the server is asked.
 */
export function toDeliverySettings(d: DeliveryDraft): { body: DeliverySettingsBody } | { problem: string } {
  const closedDates: string[] = []
  const lines = d.closedDates.split('\n').map((l) => l.trim())
  for (const [i, line] of lines.entries()) {
    if (line === '') continue
    const day = parseTypedDate(line)
    if (!day) return { problem: `休配日の${i + 1}行目「${line}」は日付として読めません（例: 2027年5月3日）` }
    closedDates.push(day)
  }
  return {
    body: {
      carrier: d.carrier,
      leadDays: Number(d.leadDays),
      horizonDays: Number(d.horizonDays),
      cutoff: d.cutoff.trim(),
      closedYearEnd: d.closedYearEnd,
      closedDates,
      extraDaysByPrefecture: Object.fromEntries(d.extra.map((e) => [e.prefecture, Number(e.days)])),
    },
  }
}
