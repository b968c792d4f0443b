import type { BillingSchedulePolicy, ForecastRow, ForecastSchedule } from '@teiki/domain'
import pg from 'pg'
import type { Db } from '../../db/pool.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'

/**
 * The contracts the shipping forecast reads (ACTIVE ones whose next billing is before the end of
 * the window), grouped by what decides their orders' dates, so that a 100,000-contract shop
 * answers in a few thousand rows: one query counts contracts by slot and by prefecture
 * (grouping sets), another sums line units by SKU. Both run with the session's time zone set to
 * the shop's, so `next_billing_date::date` is the shop's calendar day (cheaper per row than
 * `at time zone`).
 */

export type ForecastQuery = {
  shopId: string
  timeZone: string
  /** The instant after the window's last day ends: contracts billed later cannot be in it. */
  until: Date
  /**
   * The SKUs whose SKU変換 depends on 定期回数 (domain `cycleDependentSkus`): their lines' orders
   * are counted, as are those of contracts whose plan has maxCycles; nothing else is.
   */
  countSkus: readonly string[]
}

// The key columns every query groups by, all carried by contracts_active_billing_idx (migration
// 0040: the slot, promised date, prefecture, anchors and maxCycles are generated columns), so a
// query that does not count orders is an index-only scan. The created day only matters from the
// 29th (a month-end clamp); earlier days group together as 1. An overdue contract's due day is
// before the window: the domain bills it on the window's first day.
const KEY_COLUMNS = (ordersSoFar: string) => `
  c.next_billing_date::date::text as due,
  c.interval, c.interval_count, c.policy_anchors as anchors, c.policy_max_cycles as max_cycles,
  case when date_part('day', c.created_at) > 28 then date_part('day', c.created_at)::int else 1 end as created_day,
  c.delivery_promised as promised,
  ${ordersSoFar} as orders_so_far`
const KEY_GROUP =
  'k.due, k.interval, k.interval_count, k.anchors, k.max_cycles, k.created_day, k.promised, k.orders_so_far'
const WHERE = `c.shop_id = $1 and c.status = 'ACTIVE' and c.next_billing_date < $2`

/**
 * Which rows are read and which of them count their contract's orders: a correlated count (an
 * index probe of `orders`) inside CASE, so it runs only for the rows whose dates or SKUs depend
 * on it — contracts whose plan has maxCycles (their last order), and lines of an SKU whose
 * SKU変換 depends on 定期回数 ($3). One scan per query, whatever is counted.
 */
const CAPPED = 'c.policy_max_cycles is not null'
const CONTRACT_ORDERS = `case when ${CAPPED} then ${ORDER_COUNT_SQL} end`
const LINE_ORDERS = `case when ${CAPPED} or l.sku = any($3::text[]) then ${ORDER_COUNT_SQL} end`

type KeyRow = {
  due: string
  interval: string | null
  interval_count: number | null
  /** The policy's anchors as JSON text. */
  anchors: string | null
  max_cycles: number | null
  created_day: number
  promised: string | null
  orders_so_far: number | null
  count: string
}

function scheduleOf(row: KeyRow): ForecastSchedule {
  return {
    dueDate: row.due,
    policy: {
      interval: (row.interval ?? 'MONTH') as BillingSchedulePolicy['interval'],
      intervalCount: row.interval_count ?? 1,
      anchors: anchorsOf(row.anchors),
    },
    createdDay: row.created_day,
    promisedDate: row.promised && /^\d{4}-\d{2}-\d{2}$/.test(row.promised) ? row.promised : null,
    maxCycles: row.max_cycles,
    ordersSoFar: row.orders_so_far,
  }
}

const anchorsParsed = new Map<string, BillingSchedulePolicy['anchors']>()
const NO_ANCHORS: BillingSchedulePolicy['anchors'] = Object.freeze([])
/** Parsed once per distinct text (a shop has a few plans): rows of one plan share one array. */
function anchorsOf(text: string | null): BillingSchedulePolicy['anchors'] {
  if (!text) return NO_ANCHORS
  let anchors = anchorsParsed.get(text)
  if (!anchors) {
    anchors = JSON.parse(text) as BillingSchedulePolicy['anchors']
    if (anchorsParsed.size < 1_000) anchorsParsed.set(text, anchors)
  }
  return anchors
}

const rowOf = (row: KeyRow): ForecastRow => ({ ...scheduleOf(row), count: Number(row.count) })

/** Runs `sql` in its own transaction with the shop's time zone as the session's. */
async function inShopZone<T extends pg.QueryResultRow>(
  db: Db,
  timeZone: string,
  sql: string,
  values: unknown[],
): Promise<T[]> {
  const client = await db.connect()
  try {
    await client.query('begin')
    await client.query(`select set_config('TimeZone', $1, true)`, [timeZone])
    // Hash aggregation in memory, never a sort (the default 4 MB spills a 100k-row sort to disk,
    // and the planner's low estimate of a shop's lines picks sorting 150k rows), and a hash join
    // of lines to contracts rather than a probe per line: measured on 100k contracts, ADR 0040.
    // No JIT: the planner prices the order count as if it ran on every row (it runs on a few,
    // inside CASE), and compiling the query then took ~350 ms of a ~500 ms answer.
    await client.query(
      `select set_config('work_mem', '64MB', true), set_config('enable_nestloop', 'off', true),
         set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`,
    )
    const { rows } = await client.query<T>(sql, values)
    await client.query('commit')
    return rows
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export type ForecastRows = {
  contracts: ForecastRow[]
  slots: Array<ForecastRow & { slot: string }>
  prefectures: Array<ForecastRow & { code: string }>
  lines: Array<ForecastRow & { sku: string }>
}

/** A row of either query: the contracts' carry slot, province and which set; the lines' an SKU. */
type GroupRow = KeyRow & {
  slot?: string | null
  province?: string | null
  by_slot?: number
  sku?: string | null
}

const contractsSql = `
  select ${KEY_GROUP}, k.slot, k.province, grouping(k.slot) as by_slot, count(*) as count
  from (
    select ${KEY_COLUMNS(CONTRACT_ORDERS)}, c.delivery_slot as slot,
      coalesce(c.delivery_province, '') as province
    from subscription_contracts c where ${WHERE}
  ) k
  group by grouping sets ((${KEY_GROUP}, k.slot), (${KEY_GROUP}, k.province))`

const linesSql = `
  select ${KEY_GROUP}, k.sku, sum(k.quantity) as count
  from (
    select ${KEY_COLUMNS(LINE_ORDERS)}, l.sku, l.quantity
    from subscription_contracts c
    join subscription_lines l on l.shop_id = c.shop_id and l.contract_id = c.id
    where ${WHERE} and l.sku is not null and l.sku <> ''
  ) k
  group by ${KEY_GROUP}, k.sku`

/** The grouped rows of the forecast (the contracts' and the lines' query on their own connections, at once). */
export async function forecastRows(db: Db, q: ForecastQuery): Promise<ForecastRows> {
  const [byContract, byLine] = await Promise.all([
    inShopZone<GroupRow>(db, q.timeZone, contractsSql, [q.shopId, q.until]),
    inShopZone<GroupRow>(db, q.timeZone, linesSql, [q.shopId, q.until, q.countSkus]),
  ])
  const rows: ForecastRows = { contracts: [], slots: [], prefectures: [], lines: [] }
  for (const r of byContract) {
    if (r.by_slot === 0) {
      rows.contracts.push(rowOf(r))
      rows.slots.push({ ...rowOf(r), slot: r.slot || '指定なし' })
    } else rows.prefectures.push({ ...rowOf(r), code: r.province ?? '' })
  }
  for (const r of byLine) rows.lines.push({ ...rowOf(r), sku: r.sku! })
  return rows
}

/**
 * Each contract's schedule, one row at a time (pass 1 of the CSV): rows are handed to `onRow`
 * as they are parsed, never collected. Orders are always counted (the CSV carries 定期回数).
 */
export async function streamContractSchedules(
  db: Db,
  q: Omit<ForecastQuery, 'countSkus'>,
  onRow: (id: string, schedule: ForecastSchedule) => void,
): Promise<void> {
  const client = await db.connect()
  try {
    await client.query('begin')
    // No JIT (see inShopZone): every row counts its orders here, and compiling cost more than it saved.
    await client.query(`select set_config('TimeZone', $1, true), set_config('jit', 'off', true)`, [
      q.timeZone,
    ])
    await new Promise<void>((resolve, reject) => {
      const query = new pg.Query<KeyRow & { id: string }>(
        `select c.id::text as id, ${KEY_COLUMNS(ORDER_COUNT_SQL)}, 0 as count from subscription_contracts c
         where ${WHERE} order by c.next_billing_date, c.id`,
        [q.shopId, q.until],
      )
      query.on('row', (row: KeyRow & { id: string }) => onRow(row.id, scheduleOf(row)))
      query.on('error', reject)
      query.on('end', () => resolve())
      client.query(query)
    })
    await client.query('commit')
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

export type OrderDetailRow = {
  id: string
  customer_name: string
  address: {
    firstName?: string | null
    lastName?: string | null
    zip?: string | null
    province?: string | null
    provinceCode?: string | null
    city?: string | null
    address1?: string | null
    address2?: string | null
    phone?: string | null
  } | null
  slot: string | null
  lines: Array<{ sku: string | null; title: string; quantity: number }> | null
}

/** What a CSV row of these contracts shows: name, address, slot, lines (pass 2, by chunks). */
export async function orderDetails(
  db: Db,
  shopId: string,
  ids: readonly string[],
): Promise<OrderDetailRow[]> {
  const { rows } = await db.query<OrderDetailRow>(
    `select c.id::text as id, c.customer_display_name as customer_name,
       c.delivery_method->'address' as address,
       jsonb_path_query_first(c.custom_attributes, '$[*] ? (@.key == "配送時間帯").value') #>> '{}' as slot,
       (select json_agg(json_build_object('sku', l.sku, 'title', l.title, 'quantity', l.quantity)
                        order by l.position, l.id)
          from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id) as lines
     from subscription_contracts c where c.shop_id = $1 and c.id = any($2::bigint[])`,
    [shopId, ids],
  )
  return rows
}
