/**
 * A billing interval as the merchant reads it: `毎日`, `3日ごと`, `2週間ごと`, `1ヶ月ごと`,
 * `1年ごと` (契約詳細, the CSV export and its mail). A count that is missing, zero, negative or
 * not a number is read as 1; an interval the platform may add later is shown as it comes
 * (`2 QUARTER`) rather than hidden.
 */
export function billingIntervalLabel(interval: string, count: number | null): string {
  const n = count !== null && Number.isFinite(count) && count > 0 ? count : 1
  switch (interval) {
    case 'DAY':
      return n === 1 ? '毎日' : `${n}日ごと`
    case 'WEEK':
      return `${n}週間ごと`
    case 'MONTH':
      return `${n}ヶ月ごと`
    case 'YEAR':
      return `${n}年ごと`
    default:
      return `${n} ${interval}`
  }
}
