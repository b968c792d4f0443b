import type { RetentionOffer } from '@teiki/domain'
import { type DbClient, queryRows } from '../../db/pool.ts'

// A subscriber's cancellation on マイページ as a flow (migration 0043): asked with a reason,
// offered once at most per contract, then kept or cancelled.

export type FlowRow = {
  id: string
  reason_id: string
  offer: RetentionOffer | null
  outcome: 'offered' | 'kept' | 'cancelled'
}

/** The contract's flow that carried an offer (there is at most one), or null. */
export async function offeredFlowOf(
  db: DbClient,
  shopId: string,
  contractId: string,
): Promise<FlowRow | null> {
  const { rows } = await db.query<FlowRow>(
    `select id::text, reason_id::text, offer, outcome from cancellation_flows
     where shop_id = $1 and contract_id = $2 and offer is not null`,
    [shopId, contractId],
  )
  return rows[0] ?? null
}

export async function insertFlow(
  db: DbClient,
  f: {
    shopId: string
    contractId: string
    reasonId: string
    reason: string
    offer: RetentionOffer | null
    outcome: FlowRow['outcome']
    revenueKept?: number
    currencyCode: string
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into cancellation_flows (shop_id, contract_id, reason_id, reason, offer, outcome, revenue_kept,
       currency_code, decided_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, case when $6 = 'offered' then null else now() end)
     returning id::text`,
    [
      f.shopId,
      f.contractId,
      f.reasonId,
      f.reason,
      f.offer === null ? null : JSON.stringify(f.offer),
      f.outcome,
      f.revenueKept ?? 0,
      f.currencyCode,
    ],
  )
  return rows[0]!.id
}

/** Decides an offered flow: kept (with the revenue kept) or cancelled. False when it was decided already. */
export async function decideFlow(
  db: DbClient,
  shopId: string,
  id: string,
  outcome: 'kept' | 'cancelled',
  revenueKept = 0,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `update cancellation_flows set outcome = $3, revenue_kept = $4, decided_at = now()
     where shop_id = $1 and id = $2 and outcome = 'offered'`,
    [shopId, id, outcome, revenueKept],
  )
  return rowCount === 1
}

/** The contract's amount per order now: its lines at their current prices plus delivery. */
export async function orderAmountOf(db: DbClient, shopId: string, contractId: string) {
  const rows = await queryRows<{ amount: string; currency_code: string }>(
    db,
    `select (coalesce(c.delivery_price, 0) + coalesce((select sum(coalesce(l.current_price, 0) * l.quantity)
              from subscription_lines l where l.shop_id = c.shop_id and l.contract_id = c.id), 0))::text as amount,
            c.currency_code
       from subscription_contracts c where c.shop_id = $1 and c.id = $2`,
    [shopId, contractId],
  )
  return { amount: Number(rows[0]?.amount ?? 0), currencyCode: rows[0]?.currency_code ?? 'JPY' }
}

export type FlowStatsRow = {
  reason_id: string
  asked: number
  offered: number
  kept: number
  revenue: string
}

/** Per reason: flows asked, offered, kept and the revenue kept, within [from, before) when given. */
export function flowStats(db: DbClient, shopId: string, from: Date | null, before: Date | null) {
  return queryRows<FlowStatsRow>(
    db,
    `select reason_id::text, count(*)::int as asked, count(offer)::int as offered,
            count(*) filter (where outcome = 'kept')::int as kept, coalesce(sum(revenue_kept), 0)::text as revenue
       from cancellation_flows
      where shop_id = $1 and ($2::timestamptz is null or created_at >= $2) and ($3::timestamptz is null or created_at < $3)
      group by reason_id`,
    [shopId, from, before],
  )
}
