import {
  addCalendarDays,
  billingAfterDue,
  type nextBillingDate,
  toZonedDate,
  zonedDayStart,
} from '@teiki/domain'
import type { PlatformContract } from '../platform/operations/contract-fragments.ts'

// When the next cycle is due: after a success, after a skipped cycle, and when dunning retries.

type Policy = Parameters<typeof nextBillingDate>[1]

/**
 * What the schedule reads of a contract, from the platform or the mirror alike. The mirror's
 * copy of the billing policy is typed without its anchors, so they are read where present.
 */
export type Scheduled = Pick<PlatformContract, 'createdAt'> & {
  billingPolicy: Omit<PlatformContract['billingPolicy'], 'anchors'>
}

/** The contract's billing policy as the domain schedules it. */
function policyOf(contract: Scheduled): Policy {
  const p = contract.billingPolicy as Scheduled['billingPolicy'] & {
    anchors?: Array<{
      type: 'WEEKDAY' | 'MONTHDAY' | 'YEARDAY'
      day: number
      month?: number | null
      cutoffDay?: number | null
    }>
  }
  return {
    interval: p.interval as Policy['interval'],
    intervalCount: p.intervalCount,
    anchors: (p.anchors ?? []).map((a) => ({
      type: a.type,
      day: a.day,
      month: a.month ?? null,
      cutoffDay: a.cutoffDay ?? null,
    })),
  }
}

/** The next billing instant after the cycle due at `dueAt` (domain `billingAfterDue`). */
export function scheduleAfter(contract: Scheduled, dueAt: Date, timeZone: string): Date {
  const createdDay = Number(toZonedDate(contract.createdAt, timeZone).slice(8))
  return billingAfterDue(policyOf(contract), dueAt, timeZone, createdDay)
}

/** Dunning retries run at the shop's billing hour, `days` shop-local days after `now`. */
export function retryInstant(now: Date, days: number, billingHour: number, timeZone: string): Date {
  const date = addCalendarDays(toZonedDate(now, timeZone), days)
  return new Date(zonedDayStart(date, timeZone).getTime() + billingHour * 3_600_000)
}
