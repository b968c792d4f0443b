import type { ExportEncoding, ExportFilter, SubscriptionStatus } from '@teiki/contract'
import pg from 'pg'
import { type DbClient, queryRow, statement } from '../../db/pool.ts'
import { jobTable } from '../../runs/job-rows.ts'
import { ORDER_COUNT_SQL } from '../../sync/order-count.ts'
import type { ExportRow } from './csv.ts'

export type ExportJobStatus = 'queued' | 'running' | 'done' | 'failed'

export type ExportJobRow = {
  shop_id: string
  id: string
  status: ExportJobStatus
  filter: ExportFilter
  encoding: ExportEncoding
  email: string | null
  total_rows: number | null
  done_rows: number
  file_path: string | null
  byte_size: string | null
  error: string | null
  created_at: Date
  finished_at: Date | null
}

const JOB_COLUMNS = `shop_id, id::text, status, filter, encoding, email, total_rows, done_rows, file_path,
  byte_size, error, created_at, finished_at`

export async function insertJob(
  db: DbClient,
  job: { shopId: string; id: string; filter: ExportFilter; encoding: ExportEncoding; email: string | null },
): Promise<ExportJobRow> {
  const { rows } = await db.query<ExportJobRow>(
    `insert into contract_exports (shop_id, id, status, filter, encoding, email)
     values ($1, $2, 'queued', $3, $4, $5) returning ${JOB_COLUMNS}`,
    [job.shopId, job.id, JSON.stringify(job.filter), job.encoding, job.email],
  )
  return rows[0]!
}

/**
 * The export jobs' rows as tracked runs claim them (runs/job-rows.ts, runs/tracked-run.ts): a
 * queued job, or a running one whose worker died (its owner gone, or no write for 2 minutes; it
 * is run again from the start). A claim clears the error a failed try left.
 */
export const exportRows = jobTable<ExportJobRow>({
  table: 'contract_exports',
  columns: JOB_COLUMNS,
  idType: 'uuid',
  claimSets: 'error = null',
  orphanOrder: 'created_at',
})

export function findJob(db: DbClient, shopId: string, id: string) {
  return queryRow<ExportJobRow>(
    db,
    statement(
      'export-job',
      `select ${JOB_COLUMNS} from contract_exports where shop_id = $1 and id = $2::uuid`,
      [shopId, id],
    ),
  )
}

export const latestJobs = exportRows.latest

export async function updateJob(
  db: DbClient,
  shopId: string,
  id: string,
  patch: Partial<
    Pick<ExportJobRow, 'status' | 'total_rows' | 'done_rows' | 'file_path' | 'error'> & {
      byte_size: number
      finished: true
    }
  >,
): Promise<void> {
  const values: unknown[] = [shopId, id]
  const sets: string[] = []
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'finished') {
      sets.push('finished_at = now()', 'owner = null', 'updated_at = now()')
      continue
    }
    values.push(value)
    sets.push(`${key} = $${values.length}`)
  }
  sets.push('heartbeat_at = now()')
  await db.query(
    `update contract_exports set ${sets.join(', ')} where shop_id = $1 and id = $2::uuid`,
    values,
  )
}

/** The filter as SQL values: calendar days already turned into instants of the shop's zone. */
export type ExportQuery = {
  shopId: string
  timeZone: string
  statuses: SubscriptionStatus[]
  nextBillingFrom: Date | null
  nextBillingBefore: Date | null
  createdFrom: Date | null
  createdBefore: Date | null
  purchaseCountMin?: number
  purchaseCountMax?: number
  interval?: string
  intervalCount?: number
}

function whereClause(query: ExportQuery, values: unknown[]): string {
  const param = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }
  const where = ['c.shop_id = $1']
  if (query.statuses.length > 0) where.push(`c.status = any(${param(query.statuses)}::text[])`)
  if (query.nextBillingFrom) where.push(`c.next_billing_date >= ${param(query.nextBillingFrom)}`)
  if (query.nextBillingBefore) where.push(`c.next_billing_date < ${param(query.nextBillingBefore)}`)
  if (query.createdFrom) where.push(`c.created_at >= ${param(query.createdFrom)}`)
  if (query.createdBefore) where.push(`c.created_at < ${param(query.createdBefore)}`)
  if (query.interval) where.push(`c.interval = ${param(query.interval)}`)
  if (query.intervalCount !== undefined) where.push(`c.interval_count = ${param(query.intervalCount)}::int`)
  if (query.purchaseCountMin !== undefined && query.purchaseCountMax !== undefined) {
    where.push(
      `${ORDER_COUNT_SQL} between ${param(query.purchaseCountMin)}::int and ${param(query.purchaseCountMax)}::int`,
    )
  } else if (query.purchaseCountMin !== undefined) {
    where.push(`${ORDER_COUNT_SQL} >= ${param(query.purchaseCountMin)}::int`)
  } else if (query.purchaseCountMax !== undefined) {
    where.push(`${ORDER_COUNT_SQL} <= ${param(query.purchaseCountMax)}::int`)
  }
  return where.join(' and ')
}

export async function countContracts(db: DbClient, query: ExportQuery): Promise<number> {
  const values: unknown[] = [query.shopId]
  const where = whereClause(query, values)
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from subscription_contracts c where ${where}`,
    values,
  )
  return rows[0]!.n
}

/**
 * One batch of matching contracts after `afterId` in id order (keyset paging on the primary
 * key: every batch is an index range scan that resumes where the last one stopped, so the
 * whole export reads each contract once and keeps no transaction open between batches).
 * Dates come back formatted in the shop's zone and the lines as one text, so a row goes to
 * the CSV as it is. Rows are handed to `onRow` as they are parsed and not collected, so each
 * one is garbage as soon as it is written. Answers how many rows came and the last id.
 */
export function streamContractBatch(
  client: pg.PoolClient,
  query: ExportQuery,
  afterId: string,
  limit: number,
  onRow: (row: ExportRow) => void,
): Promise<{ count: number; lastId: string | null }> {
  const values: unknown[] = [query.shopId]
  const where = whereClause(query, values)
  values.push(query.timeZone, afterId, limit)
  const tz = `$${values.length - 2}::text`
  const text = `select c.id::text, c.status, c.customer_id::text,
      coalesce(nullif(c.customer_display_name, ''), cu.display_name) as customer_name,
      cu.email,
      to_char(c.next_billing_date at time zone ${tz}, 'YYYY/MM/DD') as next_billing,
      to_char(c.created_at at time zone ${tz}, 'YYYY/MM/DD') as created,
      c.interval, c.interval_count, ${ORDER_COUNT_SQL} as order_count,
      l.items, l.subtotal::text as subtotal, c.currency_code, c.delivery_price::text as delivery_price, c.note
    from subscription_contracts c
    left join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
    left join lateral (
      select string_agg(
               l.title || coalesce(' / ' || nullif(nullif(l.variant_title, ''), 'Default Title'), '')
                 || ' × ' || l.quantity,
               ' | ' order by l.position, l.id) as items,
             sum(l.current_price * l.quantity) as subtotal
      from subscription_lines l
      where l.shop_id = c.shop_id and l.contract_id = c.id
    ) l on true
    where ${where} and c.id > $${values.length - 1}::bigint
    order by c.id
    limit $${values.length}::int`
  return new Promise((resolve, reject) => {
    let count = 0
    let lastId: string | null = null
    let failure: unknown = null
    const submitted = new pg.Query<ExportRow>(text, values)
    submitted.on('row', (row) => {
      if (failure) return
      count++
      lastId = row.id
      try {
        onRow(row)
      } catch (error) {
        failure = error
      }
    })
    submitted.on('error', reject)
    submitted.on('end', () => (failure ? reject(failure) : resolve({ count, lastId })))
    client.query(submitted)
  })
}
