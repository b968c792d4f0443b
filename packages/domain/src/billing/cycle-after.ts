import { toZonedDate } from '../format/dates.ts'
import { type BillingSchedulePolicy, nextBillingDate } from './schedule.ts'

// The one rule for "when is the cycle after this one": billing's settlement and the shipping
// forecast (出荷予定) both call it, so the forecast's dates are the ones billing will use.

const lastDayOfMonth = (date: string): number => {
  const [y, m] = date.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(y, m, 0)).getUTCDate()
}

/**
 * The day of month a schedule without anchors aims at. A contract that started on the 31st and
 * was billed on 30 November (the month has no 31st) is still a "31st" contract, so December
 * bills on the 31st again: the clamp of a short month must not stick. `createdDay` is the day of
 * month the contract was created (shop's zone); a day of 28 or less never changes the answer.
 */
export function intendedDayOf(
  policy: BillingSchedulePolicy,
  dueDate: string,
  createdDay: number,
): number | undefined {
  if (policy.anchors.length > 0 || (policy.interval !== 'MONTH' && policy.interval !== 'YEAR'))
    return undefined
  const dueDay = Number(dueDate.slice(8))
  return dueDay === lastDayOfMonth(dueDate) && createdDay > dueDay ? createdDay : dueDay
}

/**
 * The billing instant of the cycle after the one due at `dueAt` (the schedule, not the charge
 * time, is the anchor), in `timeZone`, for a contract created on day `createdDay` of its month.
 */
export function billingAfterDue(
  policy: BillingSchedulePolicy,
  dueAt: Date,
  timeZone: string,
  createdDay: number,
): Date {
  const intendedDay = intendedDayOf(policy, toZonedDate(dueAt, timeZone), createdDay)
  return nextBillingDate(dueAt, policy, timeZone, intendedDay === undefined ? undefined : { intendedDay })
}
