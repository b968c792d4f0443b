import type { RetentionOffers } from '@teiki/contract'
import { offerLabel, offerProblem, type RetentionOffer } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { AppError, merchantDayRange, notFound } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { listReasonOffers, setReasonOffer } from '../cancellation-reasons/service.ts'
import { forgetShopContext } from './context-cache.ts'
import { flowStats } from './retention-repo.ts'
import { variantTitle } from './subscriber-repo.ts'

/**
 * 解約理由 › 解約防止オファー (issue 26): each live reason's offer and what subscribers did with
 * it on マイページ — asked, offered, kept, and the revenue kept (domain `revenueKept`) — within
 * the shop's calendar days when given.
 */
export async function retentionOffers(
  db: DbClient,
  shop: ShopRow,
  params: { startDate?: string | undefined; endDate?: string | undefined } = {},
): Promise<RetentionOffers> {
  const range =
    params.startDate || params.endDate
      ? merchantDayRange(params.startDate, params.endDate, shop.iana_timezone)
      : null
  const [reasons, stats] = await Promise.all([
    listReasonOffers(db, shop.id),
    flowStats(db, shop.id, range?.start ?? null, range?.endExclusive ?? null),
  ])
  const byReason = new Map(stats.map((s) => [s.reason_id, s]))
  const rows = reasons.map((r) => {
    const s = byReason.get(r.id)
    return {
      reasonId: r.id,
      reason: r.reason,
      offer: r.offer,
      offerLabel: r.offer ? offerLabel(r.offer, shop.currency_code) : null,
      asked: s?.asked ?? 0,
      offered: s?.offered ?? 0,
      kept: s?.kept ?? 0,
      revenueKept: Number(s?.revenue ?? 0),
    }
  })
  const sum = (k: 'asked' | 'offered' | 'kept' | 'revenueKept') =>
    stats.reduce((n, s) => n + (k === 'revenueKept' ? Number(s.revenue) : s[k]), 0)
  return {
    reasons: rows,
    totals: {
      asked: sum('asked'),
      offered: sum('offered'),
      kept: sum('kept'),
      revenueKept: sum('revenueKept'),
    },
  }
}

/** Sets a reason's offer (null: none); a swap names a variant of this shop's catalogue, its title taken from it. */
export async function saveRetentionOffer(
  db: DbClient,
  shop: ShopRow,
  reasonId: string,
  offer: RetentionOffer | null,
): Promise<RetentionOffers> {
  let saved = offer
  if (offer) {
    const problem = offerProblem(offer)
    if (problem) throw new AppError('INVALID_INPUT', problem)
    if (offer.kind === 'swap') {
      const title = await variantTitle(db, shop.id, offer.variantId)
      if (title === null) throw notFound(`バリエーション ${offer.variantId} はこのストアの商品にありません`)
      saved = { ...offer, title }
    }
  }
  await setReasonOffer(db, shop.id, reasonId, saved)
  forgetShopContext(shop.id)
  return retentionOffers(db, shop)
}
