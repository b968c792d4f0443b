import { zoneFormatter } from '@teiki/domain'
import type { ExportJobRow } from './repo.ts'

/** `subscriptions-20261122-1305.csv`: when the export was asked for, in the shop's zone. */
export function exportFileName(job: Pick<ExportJobRow, 'created_at'>, timeZone: string): string {
  const part: Record<string, string> = {}
  for (const { type, value } of zoneFormatter(timeZone).formatToParts(job.created_at)) {
    part[type] = value.padStart(2, '0')
  }
  return `subscriptions-${part.year}${part.month}${part.day}-${part.hour}${part.minute}.csv`
}
