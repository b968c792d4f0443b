const formatters = new Map<string, Intl.DateTimeFormat>()

/**
 * The one Intl formatter per IANA zone that every wall-clock reading uses (format/dates.ts,
 * billing/wall-clock.ts): numeric parts, 24-hour, with the era so years before 1 read right.
 * Building a DateTimeFormat is costly (tens of microseconds) and lists format hundreds of
 * dates, so each zone's is built once. Throws RangeError for an unknown zone.
 */
export function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}
