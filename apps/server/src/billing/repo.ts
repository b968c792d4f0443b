import type { BillingSettings } from '@teiki/contract'
import type { LineRepricing, PricedLine } from '@teiki/domain'
import type { DbClient } from '../db/pool.ts'
import type { CommittedContract } from '../platform/operations/subscription-draft.ts'
import type { ContractState } from '../sync/line-pricing-repo.ts'
import { contractOrderCount } from '../sync/order-count.ts'
import { CHALLENGE_EXPIRED } from './challenge-rules.ts'
import type { CycleRow } from './cycles-repo.ts'

// The engine's SQL besides claiming and finding cycles (cycles-repo.ts): where an outcome takes a
// cycle row, the prices it keeps, the run's counts, the mirror reads and writes around a charge.

/** The contract's order count (its orders mirrored so far, or the merchant's correction). */
export const orderCount = contractOrderCount

/**
 * The prices a draft just committed, into the mirror's lines, and the contract's new revision
 * (unless a newer state was mirrored meanwhile).
 */
export async function writeLinePrices(
  db: DbClient,
  shopId: string,
  contractId: string,
  changes: LineRepricing[],
  committed: CommittedContract,
): Promise<void> {
  for (const r of changes) {
    await db.query(
      'update subscription_lines set current_price = $4 where shop_id = $1 and contract_id = $2 and id = $3',
      [shopId, contractId, r.lineId, r.to],
    )
  }
  await db.query(
    `update subscription_contracts set revision_id = $3, updated_at = $4
     where shop_id = $1 and id = $2 and updated_at <= $4`,
    [shopId, contractId, committed.revisionId, committed.updatedAt],
  )
}

/** Counts a settled outcome on the run that made the attempt. */
export async function countRunOutcome(
  db: DbClient,
  shopId: string,
  runId: string,
  counter: 'succeeded' | 'failed',
): Promise<void> {
  await db.query(`update billing_runs set ${counter} = ${counter} + 1 where shop_id = $1 and id = $2`, [
    shopId,
    runId,
  ])
}

export type MailRecipient = {
  email: string | null
  display_name: string
  first_name: string | null
  last_name: string | null
}

/** The customer's address and name, through the contract. */
export async function customerOf(db: DbClient, shopId: string, contractId: string) {
  const { rows } = await db.query<MailRecipient>(
    `select cu.email, cu.display_name, cu.first_name, cu.last_name from subscription_contracts c
     join customers cu on cu.shop_id = c.shop_id and cu.id = c.customer_id
     where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  return rows[0] ?? null
}

/**
 * Marks the cycle's order mail as sent and answers its recipient; undefined when it was
 * marked before. The mark is taken before sending: a crash in between loses the mail rather
 * than sending it twice (mail_outbox keeps what was sent).
 */
export async function takeOrderMail(db: DbClient, shopId: string, cycleId: string) {
  const { rows } = await db.query<MailRecipient>(
    `with marked as (
       update billing_cycles set mailed_at = now()
       where shop_id = $1 and id = $2 and mailed_at is null returning contract_id
     )
     select cu.email, cu.display_name, cu.first_name, cu.last_name from marked m
     join subscription_contracts c on c.shop_id = $1 and c.id = m.contract_id
     join customers cu on cu.shop_id = $1 and cu.id = c.customer_id`,
    [shopId, cycleId],
  )
  return rows[0]
}

/** The lines and pricing policies read before the charge (the next cycle's prices come from them). */
export async function keepLinePricing(db: DbClient, shopId: string, cycleId: string, lines: PricedLine[]) {
  await db.query('update billing_cycles set line_pricing = $3 where shop_id = $1 and id = $2', [
    shopId,
    cycleId,
    JSON.stringify(lines),
  ])
}

type Failure = { kind: 'payment' | 'inventory'; code: string; message: string }

/** Where an outcome takes a cycle that is attempting. */
export type CycleSettlement =
  | { status: 'succeeded'; orderId: string; amount: string; currencyCode: string; cycleIndex: number }
  | ({ status: 'retry_scheduled'; nextRetryAt: Date } & Failure)
  | ({ status: 'failed'; finalAction: BillingSettings['finalAction'] } & Failure)

/** The columns a settlement sets; its parameters are numbered from $4. */
function settlementSet(to: CycleSettlement): { set: string; values: unknown[] } {
  switch (to.status) {
    case 'succeeded':
      return {
        set: `status = 'succeeded', order_id = $4, amount = $5, currency_code = $6, cycle_index = $7,
          settled_at = now(), next_retry_at = null`,
        values: [to.orderId, to.amount, to.currencyCode, to.cycleIndex],
      }
    case 'retry_scheduled':
      return {
        set: `status = 'retry_scheduled', next_retry_at = $4, failure_kind = $5, error_code = $6,
          error_message = $7`,
        values: [to.nextRetryAt, to.kind, to.code, to.message],
      }
    case 'failed':
      return {
        set: `status = 'failed', final_action = $4, failure_kind = $5, error_code = $6, error_message = $7,
          next_retry_at = null, settled_at = now()`,
        values: [to.finalAction, to.kind, to.code, to.message],
      }
  }
}

/**
 * The cycles an outcome may still move: attempting, or challenged (waiting for the customer's
 * 3-D Secure). A success may also settle a cycle whose challenge had expired (the customer
 * authenticated late, before its dunning retry charged again): see settle-challenge.ts.
 */
const SETTLEABLE = `status in ('attempting', 'challenged')`
const SETTLEABLE_BY_SUCCESS = `(${SETTLEABLE} or (status in ('retry_scheduled', 'failed')
  and error_code = '${CHALLENGE_EXPIRED}'))`

/**
 * Moves an open cycle to its outcome, conditionally on the attempt the caller settled: of
 * several paths applying the same outcome, only the one this returns true for goes on to
 * write the history and send the mail.
 */
export async function settleCycle(
  db: DbClient,
  shopId: string,
  row: CycleRow,
  to: CycleSettlement,
): Promise<boolean> {
  const { set, values } = settlementSet(to)
  const claimed = await db.query(
    `update billing_cycles set ${set}, updated_at = now()
     where shop_id = $1 and id = $2 and attempt_no = $3
       and ${to.status === 'succeeded' ? SETTLEABLE_BY_SUCCESS : SETTLEABLE}`,
    [shopId, row.id, row.attempt_no, ...values],
  )
  return claimed.rowCount === 1
}

/**
 * A contract as the mirror holds it, with what a success's follow-ups need: the schedule
 * (billing policy, creation), the attributes, the lines' prices and their kept policies.
 * The pre-charge check made sure it was the platform's state when the charge was asked.
 */
export type MirroredContract = {
  id: string
  status: 'ACTIVE' | 'FAILED' | 'PAUSED' | 'EXPIRED' | 'CANCELLED'
  customerId: string
  createdAt: string
  updatedAt: string
  revisionId: string | null
  nextBillingDate: string | null
  currencyCode: string
  billingPolicy: {
    interval: string
    intervalCount: number
    minCycles: number | null
    maxCycles: number | null
  }
  customAttributes: Array<{ key: string; value: string | null }>
  /** `sellingPlanId`: the plan the line was sold with (its custom cycle discounts, ADR 0013). */
  lines: Array<{
    id: string
    currentPrice: string
    sellingPlanId: string | null
    quantity: number
    /** The variant's SKU as the line holds it (the warehouse's; 出荷SKU converts it). */
    sku: string | null
  }>
  linePricing: PricedLine[] | null
  /** The contract state the kept policies were true at (null: never kept). */
  linePricingState: ContractState | null
  manualPrices: boolean
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** A mirrored numeric ("1800.0000") written as the platform writes a Decimal ("1800.0"). */
export function asPlatformDecimal(text: string): string {
  const [whole, fraction = ''] = text.split('.')
  return `${whole}.${fraction.replace(/0+$/, '') || '0'}`
}

/** The mirrored contract (undefined when the mirror does not hold it). */
export async function mirroredContract(
  db: DbClient,
  shopId: string,
  contractId: string,
): Promise<MirroredContract | undefined> {
  const { rows } = await db.query<{
    status: MirroredContract['status']
    customer_id: string
    created_at: Date
    updated_at: Date
    revision_id: string | null
    next_billing_date: Date | null
    currency_code: string
    billing_policy: MirroredContract['billingPolicy']
    custom_attributes: MirroredContract['customAttributes']
    line_pricing: PricedLine[] | null
    line_pricing_revision: string | null
    line_pricing_updated_at: Date | null
    manual: boolean
    lines: MirroredContract['lines'] | null
  }>(
    `select c.status, c.customer_id::text, c.created_at, c.updated_at, c.revision_id, c.next_billing_date,
       c.currency_code, c.billing_policy, c.custom_attributes, c.line_pricing, c.line_pricing_revision,
       c.line_pricing_updated_at,
       c.price_manually_changed_at is not null as manual,
       (select jsonb_agg(jsonb_build_object('id', l.id, 'currentPrice', l.current_price::text,
           'sellingPlanId', l.selling_plan_id::text, 'quantity', l.quantity, 'sku', l.sku) order by l.position)
          from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id) as lines
     from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  const r = rows[0]
  if (!r) return undefined
  return {
    id: contractId,
    status: r.status,
    customerId: r.customer_id,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
    revisionId: r.revision_id,
    nextBillingDate: iso(r.next_billing_date),
    currencyCode: r.currency_code,
    billingPolicy: r.billing_policy,
    customAttributes: r.custom_attributes ?? [],
    lines: (r.lines ?? []).map((l) => ({
      id: l.id,
      currentPrice: asPlatformDecimal(l.currentPrice),
      sellingPlanId: l.sellingPlanId ?? null,
      quantity: l.quantity,
      sku: l.sku ?? null,
    })),
    linePricing: r.line_pricing,
    linePricingState: r.line_pricing_updated_at
      ? { revisionId: r.line_pricing_revision, updatedAt: r.line_pricing_updated_at.toISOString() }
      : null,
    manualPrices: r.manual,
  }
}

/** The mirrored row's status, next billing date, updatedAt and revision (the pre-charge check compares them). */
export async function mirroredState(db: DbClient, shopId: string, contractId: string) {
  const { rows } = await db.query<{
    status: string
    next_billing_date: Date | null
    updated_at: Date
    revision_id: string | null
  }>(
    `select status, next_billing_date, updated_at, revision_id from subscription_contracts
     where shop_id = $1 and id = $2`,
    [shopId, contractId],
  )
  return rows[0]
}
