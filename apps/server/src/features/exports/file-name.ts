import type { ExportJobRow } from './repo.ts'

const fileNameFormatters = new Map<string, Intl.DateTimeFormat>()

/** `subscriptions-20261122-1305.csv`: when the export was asked for, in the shop's zone. */
export function exportFileName(job: Pick<ExportJobRow, 'created_at'>, timeZone: string): string {
  let format = fileNameFormatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
    fileNameFormatters.set(timeZone, format)
  }
  const part: Record<string, string> = {}
  for (const { type, value } of format.formatToParts(job.created_at)) part[type] = value
  return `subscriptions-${part.year}${part.month}${part.day}-${part.hour}${part.minute}.csv`
}
