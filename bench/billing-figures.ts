import type { CallLogEntry, Delivery } from '@teiki/shopify-emulator'

export type OperationPoints = {
  calls: number
  /** Sum of actualQueryCost: what the platform took. */
  points: number
  /** Sum of requestedQueryCost: what the calls asked up front. */
  requested: number
  throttled: number
}

/**
 * What the platform saw of one shop's calls (the emulator's call log from `from` on): points
 * taken (actual cost), THROTTLED answers (no actual cost; a query over the 1,000-point cap is
 * counted apart), and both per operation, largest first.
 */
export function platformSpend(log: readonly CallLogEntry[], shop: string, from: number) {
  const byOperation: Record<string, OperationPoints> = {}
  let points = 0
  let calls = 0
  let throttled = 0
  let overCap = 0
  for (const entry of log.slice(from)) {
    if (entry.shop !== shop) continue
    const name = entry.operationName ?? entry.rootFields.join('+')
    const op = byOperation[name] ?? { calls: 0, points: 0, requested: 0, throttled: 0 }
    byOperation[name] = op
    calls++
    op.calls++
    op.requested += entry.requestedCost ?? 0
    if (typeof entry.actualCost === 'number') {
      points += entry.actualCost
      op.points += entry.actualCost
    } else if ((entry.requestedCost ?? 0) > 1000) overCap++
    else {
      throttled++
      op.throttled++
    }
  }
  const sorted = Object.fromEntries(Object.entries(byOperation).sort(([, a], [, b]) => b.points - a.points))
  return { points, calls, throttled, overCap, byOperation: sorted }
}

/** Points per billed contract of each operation (one decimal), for the report. */
export function perContract(byOperation: Record<string, OperationPoints>, billed: number) {
  const out: Record<string, number> = {}
  for (const [name, op] of Object.entries(byOperation)) out[name] = round1(op.points / Math.max(1, billed))
  return out
}

/**
 * Webhook deliveries to the app from `from` on, by topic (delivered, failed for good, tries),
 * how many failed their first try, and how many still wait for a retry.
 */
export function webhookDeliveries(deliveries: readonly Delivery[], from: number) {
  const byTopic: Record<string, { events: number; delivered: number; failed: number; attempts: number }> = {}
  for (const d of deliveries.slice(from)) {
    const t = byTopic[d.topic] ?? { events: 0, delivered: 0, failed: 0, attempts: 0 }
    byTopic[d.topic] = t
    t.events++
    t.attempts += d.attempts
    if (d.status === 'delivered') t.delivered++
    if (d.status === 'failed' || d.status === 'dropped') t.failed++
  }
  let retried = 0
  let failedFirst = 0
  let pending = 0
  for (const t of Object.values(byTopic)) retried += t.attempts - t.events
  for (const d of deliveries.slice(from)) {
    if (d.attempts > 1 || (d.attempts === 1 && d.status !== 'delivered')) failedFirst++
    if (d.status === 'pending') pending++
  }
  return { byTopic, retried, failedFirst, pending }
}

export const round1 = (n: number) => Math.round(n * 10) / 10
