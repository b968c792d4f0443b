import type { DailyCount, PersistenceQuery, PersistenceRate, SalesPoint } from '@teiki/contract'
import {
  activeSeries,
  cohortMonths,
  cumulativeSeries,
  eachDay,
  persistenceRow,
  toZonedDate,
} from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { cohortCounts } from './persistence-repo.ts'
import {
  activeDeltas,
  activeNow,
  type CountColumn,
  countsByDay,
  currencies,
  type SalesRow,
  salesByDay,
} from './repo.ts'

export type Range = { startDate: string; endDate: string }

/**
 * The report use-cases (spec §7 "Reports", /subscriptions/persistence-rate): the rollups of
 * migration 0018 read per range and laid out per day with the measures of
 * packages/domain/src/analytics. Nothing here scans the history.
 */
export function createReportService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps
  const now = deps.now ?? (() => new Date())

  async function daily(shop: ShopRow, measure: CountColumn, r: Range): Promise<DailyCount[]> {
    const days = await countsByDay(db, shop.id, measure, r.startDate, r.endDate)
    return eachDay(r.startDate, r.endDate).map((date) => ({ date, count: days.get(date) ?? 0 }))
  }

  async function sales(shop: ShopRow, r: Range, currency?: string): Promise<SalesPoint[]> {
    const rows = await salesByDay(db, shop.id, r.startDate, r.endDate, currency)
    return fillSales(rows, eachDay(r.startDate, r.endDate), currency ? [currency] : distinct(rows, shop))
  }

  return {
    daily,
    cumulative: async (shop: ShopRow, measure: CountColumn, r: Range) =>
      cumulativeSeries(await daily(shop, measure, r)),

    /** Contracts active at the end of each day of the range. */
    active: async (shop: ShopRow, r: Range): Promise<DailyCount[]> => {
      const { before, deltas } = await activeDeltas(db, shop.id, r.startDate, r.endDate)
      return activeSeries(before, deltas, r.startDate, r.endDate)
    },

    current: async (shop: ShopRow) => ({
      date: toZonedDate(now(), shop.iana_timezone),
      count: await activeNow(db, shop.id),
    }),

    sales,

    /** Running sales per currency from the first day of the range. */
    cumulativeSales: async (shop: ShopRow, r: Range, currency?: string): Promise<SalesPoint[]> => {
      const points = await sales(shop, r, currency)
      const totals = new Map<string, { cents: bigint; orders: number }>()
      return points.map((p) => {
        const t = totals.get(p.currency) ?? { cents: 0n, orders: 0 }
        t.cents += toUnits(p.sales)
        t.orders += p.orders
        totals.set(p.currency, t)
        return { ...p, sales: fromUnits(t.cents), orders: t.orders }
      })
    },

    currencies: async (shop: ShopRow, r: Range) =>
      (await currencies(db, shop.id, r.startDate, r.endDate)).map((c) => ({
        currency: c.currency,
        sales: c.amount,
        orders: c.orders,
      })),

    persistence: async (shop: ShopRow, q: PersistenceQuery): Promise<PersistenceRate> => {
      const today = toZonedDate(now(), shop.iana_timezone)
      const months = cohortMonths(q.baseDate, today)
      if (months.length === 0) return { rows: [] }
      const counts = await cohortCounts(db, shop.id, months[0]!, today, q)
      const byMonth = new Map(counts.map((c) => [c.month, c]))
      return {
        rows: months.map((m) => {
          const c = byMonth.get(m)
          return persistenceRow(m, c?.contracts ?? 0, c?.reached ?? [])
        }),
      }
    },
  }
}

export type ReportService = ReturnType<typeof createReportService>

const distinct = (rows: SalesRow[], shop: ShopRow): string[] => {
  const set = new Set(rows.map((r) => r.currency))
  if (set.size === 0) set.add(shop.currency_code)
  return [...set].sort()
}

/**
 * One point per day and currency, 0 on days without sales. `rows` come sorted by day and
 * currency, as the points are: one pass over both.
 */
function fillSales(rows: SalesRow[], days: string[], currencyCodes: string[]): SalesPoint[] {
  const points: SalesPoint[] = []
  let i = 0
  for (const date of days) {
    while (i < rows.length && rows[i]!.day < date) i++
    for (const currency of currencyCodes) {
      while (i < rows.length && rows[i]!.day === date && rows[i]!.currency < currency) i++
      const row = rows[i]
      const hit = row !== undefined && row.day === date && row.currency === currency
      points.push({ date, currency, sales: hit ? row.amount : '0', orders: hit ? row.orders : 0 })
    }
  }
  return points
}

// Amounts are numeric(24,4) text; sums are kept in ten-thousandths as BigInt, never floats.
function toUnits(text: string): bigint {
  const negative = text.startsWith('-')
  const [int = '0', frac = ''] = text.replace('-', '').split('.')
  const units = BigInt(int) * 10_000n + BigInt(`${frac}0000`.slice(0, 4))
  return negative ? -units : units
}

function fromUnits(units: bigint): string {
  const negative = units < 0n
  const abs = negative ? -units : units
  const int = abs / 10_000n
  const frac = (abs % 10_000n).toString().padStart(4, '0').replace(/0+$/, '')
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`
}
