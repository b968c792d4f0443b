import { type SegmentConditions, zonedDayRange } from '@teiki/domain'

/**
 * The segment condition language (ADR 0017, domain `matchesSegment`) as SQL over the customer
 * mirror: a `where` on `customers cu` left-joined to `customer_totals t`, with its parameters
 * numbered after the ones the caller already holds. Conditions on contracts, lines and
 * attributions are `exists` probes on the customer's own rows (indexed by shop and customer),
 * so a page of a segment walks the customers index and probes only the rows it shows.
 */
export type SegmentWhere = { sql: string; params: unknown[] }

export function segmentWhere(
  c: SegmentConditions,
  ctx: { shopParam: number; currency: string; timeZone: string; firstParam: number },
): SegmentWhere {
  const params: unknown[] = []
  const p = (value: unknown) => {
    params.push(value)
    return `$${ctx.firstParam + params.length - 1}`
  }
  const shop = `$${ctx.shopParam}`
  const parts: string[] = []
  if (c.traffic?.length) {
    // Spelled out (not a joined recordset) so the planner sees the values and their share of
    // the shop's attributions: with a common campaign it walks the customers and probes.
    const any = c.traffic
      .map((t) =>
        t.medium ? `(a.source = ${p(t.source)} and a.medium = ${p(t.medium)})` : `a.source = ${p(t.source)}`,
      )
      .join(' or ')
    parts.push(`exists (select 1 from contract_attributions a
      where a.shop_id = ${shop} and a.customer_id = cu.id and (${any}))`)
  }
  if (c.statuses?.length) {
    parts.push(`exists (select 1 from subscription_contracts sc
      where sc.shop_id = ${shop} and sc.customer_id = cu.id and sc.status = any(${p(c.statuses)}::text[]))`)
  }
  const count = 'coalesce(t.order_count, 0)'
  if (c.orderCount?.min !== undefined) parts.push(`${count} >= ${p(c.orderCount.min)}::integer`)
  if (c.orderCount?.max !== undefined) parts.push(`${count} <= ${p(c.orderCount.max)}::integer`)
  if (c.lifetimeValue && (c.lifetimeValue.min !== undefined || c.lifetimeValue.max !== undefined)) {
    // In the shop's currency only: amounts in other currencies are never added (domain ltv.ts).
    const ltv = `coalesce((t.amounts -> ${p(ctx.currency)} ->> 'amount')::numeric, 0)`
    if (c.lifetimeValue.min !== undefined) parts.push(`${ltv} >= ${p(c.lifetimeValue.min)}::numeric`)
    if (c.lifetimeValue.max !== undefined) parts.push(`${ltv} <= ${p(c.lifetimeValue.max)}::numeric`)
  }
  if (c.firstOrderDate) {
    const { start, endExclusive } = zonedDayRange(c.firstOrderDate.from, c.firstOrderDate.to, ctx.timeZone)
    parts.push('t.first_order_at is not null')
    if (start) parts.push(`t.first_order_at >= ${p(start)}::timestamptz`)
    if (endExclusive) parts.push(`t.first_order_at < ${p(endExclusive)}::timestamptz`)
  }
  if (c.sellingPlanGroupIds?.length) {
    parts.push(`exists (select 1 from subscription_contracts sc
      join subscription_lines l on l.shop_id = sc.shop_id and l.contract_id = sc.id
      join selling_plans sp on sp.shop_id = l.shop_id and sp.id = l.selling_plan_id
      where sc.shop_id = ${shop} and sc.customer_id = cu.id and sp.group_id = any(${p(c.sellingPlanGroupIds)}::bigint[]))`)
  }
  if (c.tags?.any?.length) parts.push(`cu.tags && ${p(c.tags.any)}::text[]`)
  if (c.tags?.none?.length) parts.push(`not (cu.tags && ${p(c.tags.none)}::text[])`)
  return { sql: parts.length > 0 ? parts.join('\n  and ') : 'true', params }
}
