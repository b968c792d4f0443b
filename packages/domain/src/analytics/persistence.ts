import { formatPercent } from '../format/numbers.ts'

/** Spec §4: persistence is reported for order counts 1 through 12. */
export const PERSISTENCE_ORDER_COUNTS = 12

/**
 * The cohort rule (docs/analytics.md): a contract belongs to the month (shop-local) it started
 * in; it "reached order N" when it has at least N counted orders (checkout included, test and
 * cancelled orders not). The rate for N is reached ÷ cohort size, shown as a whole percent.
 */
export type PersistenceEntry = { orderCount: number; count: number; rate: number; percent: string }
export type PersistenceRow = { targetDate: string; contracts: number; entries: PersistenceEntry[] }

/** One cohort's row from its size and `reached[n-1]` = contracts with at least n orders. */
export function persistenceRow(targetDate: string, contracts: number, reached: number[]): PersistenceRow {
  const entries = Array.from({ length: PERSISTENCE_ORDER_COUNTS }, (_, i) => {
    const count = reached[i] ?? 0
    const rate = contracts === 0 ? 0 : count / contracts
    return { orderCount: i + 1, count, rate, percent: contracts === 0 ? '—' : formatPercent(rate, 0) }
  })
  return { targetDate, contracts, entries }
}

/** `reached` for a list of per-contract order counts (the reference of the SQL's filters). */
export function reachedCounts(orderCounts: number[]): number[] {
  return Array.from(
    { length: PERSISTENCE_ORDER_COUNTS },
    (_, i) => orderCounts.filter((n) => n >= i + 1).length,
  )
}

/** The months (`YYYY-MM-01`) from the month of `base` to the month of `today`, at most `max`. */
export function cohortMonths(base: string, today: string, max = 24): string[] {
  const months: string[] = []
  let [y, m] = base.split('-').map(Number) as [number, number]
  const end = today.slice(0, 7)
  while (months.length < max) {
    const key = `${y}-${String(m).padStart(2, '0')}`
    if (key > end) break
    months.push(`${key}-01`)
    m += 1
    if (m > 12) {
      m = 1
      y += 1
    }
  }
  return months
}
