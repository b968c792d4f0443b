import { createHash } from 'node:crypto'
import type { SubscriptionStatus } from '@teiki/contract'
import { type DbClient, statement } from '../../db/pool.ts'
import { prefixRange } from '../../sync/search-keys.ts'

export type ContractListRow = {
  id: string
  status: SubscriptionStatus
  customer_id: string
  next_billing_date: Date | null
  customer_display_name: string
}

/** Prefixes as typed (normalised), not LIKE patterns: the repo turns them into ranges. */
export type CustomerFilter =
  | { mode: 'phone'; phoneRevPrefix: string }
  | {
      mode: 'any'
      emailPrefix: string
      nameKeyPrefix: string
      firstNamePrefix: string
      phoneRevPrefix: string | null
    }

export type ListFilter = {
  shopId: string
  statuses: SubscriptionStatus[]
  nextBillingFrom: Date | null
  nextBillingBefore: Date | null
  contractId?: string
  variantId?: string
  customer?: CustomerFilter
  offset: number
  /**
   * `nextBilling`: (next_billing_date, id), for date-range searches; `newest`: id desc
   * (contract ids grow with creation), the platform's own default order.
   */
  order: 'nextBilling' | 'newest'
  /** Rows to fetch: the caller asks one more than the page to learn hasNextPage. */
  fetch: number
}

/** One page of contracts for every search kind, in the filter's order. */
export async function listContracts(db: DbClient, filter: ListFilter): Promise<ContractListRow[]> {
  const { from, values, param } = matchingContracts(filter)
  const orderBy = filter.order === 'nextBilling' ? 'c.next_billing_date nulls last, c.id' : 'c.id desc'
  const text = `select c.id, c.status, c.customer_id, c.next_billing_date, c.customer_display_name from ${from}
    order by ${orderBy}
    limit ${param(filter.fetch)} offset ${param(filter.offset)}`
  const { rows } = await db.query<ContractListRow>(statement(statementName('list', text), text, values))
  return rows
}

/**
 * How many contracts match `filter`, counting at most `limit` + 1 of them: the same index range
 * as the page, stopped early, so a count costs at most `limit` index entries however large the
 * shop (ADR 0004). Returns `limit + 1` when there are more.
 */
export async function countContracts(db: DbClient, filter: ListFilter, limit: number): Promise<number> {
  const { from, values, param } = matchingContracts(filter)
  const text = `select count(*)::int as n from (select 1 from ${from} limit ${param(limit + 1)}) m`
  const { rows } = await db.query<{ n: number }>(statement(statementName('count', text), text, values))
  return rows[0]?.n ?? 0
}

/**
 * The FROM and WHERE of every search kind, shared by the page and its count. Both orders of the
 * page match an index (contracts_next_billing_idx / contracts_status_next_billing_idx, or the
 * primary key / contracts_status_id_idx), so a page is an ordered index scan that stops after
 * offset + fetch rows instead of sorting every match. A single status uses `=` rather than
 * `= any(...)` so the status-leading indexes give that order too.
 */
function matchingContracts(filter: ListFilter) {
  const values: unknown[] = [filter.shopId]
  const where: string[] = ['c.shop_id = $1']
  const param = (value: unknown) => {
    values.push(value)
    return `$${values.length}`
  }

  if (filter.statuses.length === 1) where.push(`c.status = ${param(filter.statuses[0])}`)
  else if (filter.statuses.length > 1) where.push(`c.status = any(${param(filter.statuses)}::text[])`)
  if (filter.nextBillingFrom) where.push(`c.next_billing_date >= ${param(filter.nextBillingFrom)}`)
  if (filter.nextBillingBefore) where.push(`c.next_billing_date < ${param(filter.nextBillingBefore)}`)
  if (filter.contractId) where.push(`c.id = ${param(filter.contractId)}::bigint`)
  if (filter.customer) where.push(`c.customer_id in (${customerMatch(filter.customer, param)})`)

  // The customer's name is kept on the contract row (migration 0003), so a page is read
  // from one covering index with no lookup per row.
  // A variant search walks the variant's contract ids newest first straight from
  // lines_variant_idx and probes each contract (lateral: a nested loop that stops at the
  // page end), instead of collecting every contract that holds the variant and sorting.
  const from = filter.variantId
    ? `(select distinct l.contract_id from subscription_lines l
          where l.shop_id = $1 and l.variant_id = ${param(filter.variantId)}::bigint
          order by l.contract_id desc) v
        cross join lateral (
          select c.id, c.status, c.customer_id, c.next_billing_date, c.customer_display_name
          from subscription_contracts c
          where c.id = v.contract_id and ${where.join(' and ')}
        ) c`
    : `subscription_contracts c where ${where.join(' and ')}`
  return { from, values, param }
}

/** Named statements are prepared once per connection; the name follows the SQL's shape. */
function statementName(kind: string, text: string): string {
  let name = statementNames.get(text)
  if (!name) {
    name = `${kind}-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`
    statementNames.set(text, name)
  }
  return name
}

// A handful of SQL shapes exist (one per filter combination); their names are computed once.
const statementNames = new Map<string, string>()

function customerMatch(filter: CustomerFilter, param: (value: unknown) => string): string {
  const startsWith = (column: string, prefix: string) => {
    const range = prefixRange(prefix)
    return `(${column} ~>=~ ${param(range.from)} and ${column} ~<~ ${param(range.to)})`
  }
  if (filter.mode === 'phone') {
    return `select id from customers where shop_id = $1 and ${startsWith('phone_rev', filter.phoneRevPrefix)}`
  }
  // Names and phones never contain '@': an e-mail-looking term is matched on e-mail only,
  // which keeps the plan to one index range scan.
  if (filter.emailPrefix.includes('@')) {
    return `select id from customers where shop_id = $1 and ${startsWith('lower(email)', filter.emailPrefix)}`
  }
  const ors = [
    startsWith('lower(email)', filter.emailPrefix),
    startsWith('name_key', filter.nameKeyPrefix),
    startsWith('lower(first_name)', filter.firstNamePrefix),
  ]
  if (filter.phoneRevPrefix) ors.push(startsWith('phone_rev', filter.phoneRevPrefix))
  return `select id from customers where shop_id = $1 and (${ors.join(' or ')})`
}
