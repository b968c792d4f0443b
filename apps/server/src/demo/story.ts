import { type Db, withTransaction } from '../db/pool.ts'
import { ensureCancellationReasons, recordCancellation } from '../features/cancellation-reasons/service.ts'
import { createSegmentService, type SegmentInput } from '../features/cdp/segments-service.ts'
import type { ShopRow } from '../platform/shops-repo.ts'
import { cancelledContracts } from './repo.ts'

/**
 * The demo shop's story beyond the emulator's data (issue 22 item 5): why its customers left,
 * and the segments a merchant would keep. Every screen of a fresh start then has something to
 * show: 解約理由 counts the cancellations 分析 counts, セグメント lists customers.
 */

/** The shop's reasons, in the order the churn dialog offers them, and how often each is chosen. */
export const DEMO_CANCELLATION_REASONS: ReadonlyArray<{ reason: string; weight: number }> = [
  { reason: '商品が余っている', weight: 30 },
  { reason: '価格が高い', weight: 20 },
  { reason: 'お届けの間隔が合わない', weight: 14 },
  { reason: '味・効果に満足できなかった', weight: 14 },
  { reason: '他の商品に切り替えた', weight: 10 },
  { reason: '引っ越し・長期不在', weight: 7 },
  { reason: 'その他', weight: 5 },
]

/**
 * Which reason a cancelled contract was given: drawn by weight from the contract id (FNV-1a),
 * so the same mirror always tells the same story.
 */
export function demoReasonIndex(contractId: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < contractId.length; i++) {
    h ^= contractId.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  const total = DEMO_CANCELLATION_REASONS.reduce((sum, r) => sum + r.weight, 0)
  let draw = (h >>> 0) % total
  for (const [index, r] of DEMO_CANCELLATION_REASONS.entries()) {
    draw -= r.weight
    if (draw < 0) return index
  }
  return DEMO_CANCELLATION_REASONS.length - 1
}

/**
 * The shop's cancellation reasons (those it already has kept), and one for each contract the
 * mirror holds as cancelled without a recorded reason, at the moment it was cancelled: what a
 * churn with a reason records. One transaction: all or none. Answers how many cancellations
 * were given a reason.
 */
export async function seedCancellationReasons(db: Db, shop: ShopRow): Promise<number> {
  return withTransaction(db, async (tx) => {
    const texts = DEMO_CANCELLATION_REASONS.map((r) => r.reason)
    const ids = await ensureCancellationReasons(tx, shop.id, texts)
    const cancelled = await cancelledContracts(tx, shop.id)
    for (const c of cancelled) {
      const reasonId = ids[demoReasonIndex(c.contractId)]!
      await recordCancellation(tx, shop.id, c.contractId, { reasonId }, c.cancelledAt)
    }
    return cancelled.length
  })
}

/** Segments a subscription shop keeps: its best customers, a campaign's, and those who left. */
export const DEMO_SEGMENTS: readonly SegmentInput[] = [
  { name: '定期便を5回以上ご購入のお客様', conditions: { orderCount: { min: 5 } } },
  { name: 'Instagramから来たお客様', conditions: { traffic: [{ source: 'instagram' }] } },
  { name: '解約したお客様', conditions: { statuses: ['CANCELLED'] } },
]

export async function seedSegments(db: Db, shop: ShopRow): Promise<number> {
  const segments = createSegmentService({ db })
  for (const input of DEMO_SEGMENTS) await segments.create(shop, input)
  return DEMO_SEGMENTS.length
}
