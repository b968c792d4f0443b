import { type ExportFilter, exportStatuses } from '@teiki/contract'
import { zonedDayRange } from '@teiki/domain'
import { AppError } from '../../http/app-error.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import type { ExportQuery } from './repo.ts'

/** The job's filter as SQL values; a day the zone does not have is a 400. */
export function toQuery(shop: ShopRow, filter: ExportFilter): ExportQuery {
  const zone = shop.iana_timezone
  let nextBilling: ReturnType<typeof zonedDayRange>
  let created: ReturnType<typeof zonedDayRange>
  try {
    nextBilling = zonedDayRange(filter.nextBillingDateStartDate, filter.nextBillingDateEndDate, zone)
    created = zonedDayRange(filter.createdDateStartDate, filter.createdDateEndDate, zone)
  } catch {
    throw new AppError(
      'INVALID_INPUT',
      '日付の指定が正しくありません（存在しない日付か、開始日が終了日より後です）。',
    )
  }
  return {
    shopId: shop.id,
    timeZone: zone,
    statuses: exportStatuses(filter),
    nextBillingFrom: nextBilling.start,
    nextBillingBefore: nextBilling.endExclusive,
    createdFrom: created.start,
    createdBefore: created.endExclusive,
    purchaseCountMin: filter.purchaseCountMin,
    purchaseCountMax: filter.purchaseCountMax,
    interval: filter.interval,
    intervalCount: filter.intervalCount,
  }
}
