import type { PixelEvent, TrafficQuery, TrafficReport } from '@teiki/contract'
import { gidNumber } from '@teiki/contract'
import { trafficRate, utmOf } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { attributeShop } from './attribution.ts'
import type { HitRow } from './repo.ts'
import { generatedThrough, trafficRows, trafficValues } from './report-repo.ts'

/** The stored form of the pixel's events: utm values read from the page URL. */
export function hitRows(shopId: string, events: PixelEvent[]): HitRow[] {
  return events.map((e) => {
    const utm =
      e.name === 'page_viewed' && e.url ? utmOf(e.url) : { source: '', medium: '', campaign: '', content: '' }
    return {
      shop_id: shopId,
      event_id: e.id,
      kind: e.name,
      client_id: e.clientId,
      ...utm,
      order_id: e.orderId ? (gidNumber('Order', e.orderId) ?? e.orderId) : null,
    }
  })
}

export function createTrafficService(deps: { db: Db }) {
  const { db } = deps
  return {
    report: async (shop: ShopRow, q: TrafficQuery): Promise<TrafficReport> => {
      // Checkouts whose contract has arrived since the last sweep are attributed first.
      await attributeShop(db, shop.id)
      const rows = await trafficRows(db, shop.id, q.startDate, q.endDate, {
        ...(q.source ? { source: q.source } : {}),
        ...(q.medium ? { medium: q.medium } : {}),
        ...(q.campaign ? { campaign: q.campaign } : {}),
        ...(q.content ? { content: q.content } : {}),
      })
      return {
        generatedThrough: await generatedThrough(db, shop.id),
        rows: rows.map((r) => ({
          source: r.source,
          medium: r.medium,
          campaign: r.campaign,
          content: r.content,
          accessCount: r.access,
          achievedCount: r.achieved,
          rate: trafficRate(r.access, r.achieved),
        })),
      }
    },
    conditions: (shop: ShopRow) => trafficValues(db, shop.id),
  }
}
