import {
  type DailyCount,
  type PersistenceRate,
  type SalesPoint,
  ZCurrencyList,
  ZCurrentCount,
  ZDailyCounts,
  ZPersistenceRate,
  ZPixelSettings,
  ZSalesSeries,
  ZTrafficConditions,
  ZTrafficReport,
} from '@teiki/contract'
import { unpaddedDate } from '@teiki/domain'
import type { z } from 'zod'
import { ApiError, api } from '../../app/api.ts'

/** A range of shop-local days `YYYY-MM-DD`; sent unpadded (spec §9). */
export type DayRange = { from: string; to: string }

const unreadable = () => new ApiError(200, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')

/**
 * The charts draw straight from these answers, so each is checked once more against its schema
 * (an answer it refuses is 「読み取れませんでした」, not a broken chart).
 */
async function checked<T>(schema: z.ZodType<T>, answer: Promise<unknown>): Promise<T> {
  const parsed = schema.safeParse(await answer)
  if (!parsed.success) throw unreadable()
  return parsed.data
}

const range = (r: DayRange) => ({ query: { startDate: unpaddedDate(r.from), endDate: unpaddedDate(r.to) } })

export type CountPath =
  | 'daily-report/active-contract'
  | 'daily-report/new-contract'
  | 'daily-report/cancel'
  | 'daily-report/pause'
  | 'cumulative/failure'

export const analyticsApi = {
  counts: (path: CountPath, r: DayRange, signal?: AbortSignal): Promise<DailyCount[]> =>
    checked(ZDailyCounts, api(`GET /${path}`, range(r), { signal })),
  sales: (r: DayRange, signal?: AbortSignal): Promise<SalesPoint[]> =>
    checked(ZSalesSeries, api('GET /daily-report/subtotal', range(r), { signal })),
  currencies: (r: DayRange, signal?: AbortSignal) =>
    checked(ZCurrencyList, api('GET /daily-report/subtotal/currency', range(r), { signal })),
  current: (signal?: AbortSignal) =>
    checked(ZCurrentCount, api('GET /current/active-contract', { query: {} }, { signal })),
  persistence: (
    q: { baseDate: string; sellingPlanGroupId?: string; source?: string },
    signal?: AbortSignal,
  ): Promise<PersistenceRate> =>
    checked(
      ZPersistenceRate,
      api(
        'GET /subscriptions/persistence-rate',
        { query: { ...q, baseDate: unpaddedDate(q.baseDate) } },
        { signal },
      ),
    ),
  traffic: (r: DayRange, filters: Record<string, string>, signal?: AbortSignal) =>
    checked(
      ZTrafficReport,
      api('GET /traffic-actuation', { query: { ...range(r).query, ...filters } }, { signal }),
    ),
  trafficConditions: (signal?: AbortSignal) =>
    checked(ZTrafficConditions, api('GET /traffic-actuation/condition', undefined, { signal })),
  pixelSettings: (signal?: AbortSignal) =>
    checked(ZPixelSettings, api('GET /traffic/pixel-settings', undefined, { signal })),
  groups: async (signal?: AbortSignal) =>
    (await api('GET /subscriptions/sellingPlanGroups', { query: {} }, { signal })).groups,
}
