import { addCalendarDays, nextBillingDate, toZonedDate, zonedDayStart } from '@teiki/domain'
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

const lastDayOfMonth = (date: string): number => {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).getUTCDate()
}

/**
 * The day of month a monthly schedule without anchors aims at. A contract that started on the
 * 31st and was billed on 30 November (the month has no 31st) is still a "31st" contract, so
 * December bills on the 31st again: the clamp of a short month must not stick.
 */
function intendedDayOf(policy: Policy, dueDate: string, createdDate: string): number | undefined {
  if (policy.anchors.length > 0 || (policy.interval !== 'MONTH' && policy.interval !== 'YEAR'))
    return undefined
  const dueDay = Number(dueDate.slice(8))
  const createdDay = Number(createdDate.slice(8))
  return dueDay === lastDayOfMonth(dueDate) && createdDay > dueDay ? createdDay : dueDay
}

/** The next billing instant after the cycle due at `dueAt` (the schedule, not the charge time, is the anchor). */
export function scheduleAfter(contract: Scheduled, dueAt: Date, timeZone: string): Date {
  const policy = policyOf(contract)
  const intendedDay = intendedDayOf(
    policy,
    toZonedDate(dueAt, timeZone),
    toZonedDate(contract.createdAt, timeZone),
  )
  return nextBillingDate(dueAt, policy, timeZone, intendedDay === undefined ? undefined : { intendedDay })
}

/** Dunning retries run at the shop's billing hour, `days` shop-local days after `now`. */
export function retryInstant(now: Date, days: number, billingHour: number, timeZone: string): Date {
  const date = addCalendarDays(toZonedDate(now, timeZone), days)
  return new Date(zonedDayStart(date, timeZone).getTime() + billingHour * 3_600_000)
}
