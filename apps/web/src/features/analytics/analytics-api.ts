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
import { ApiError, apiGet, type QueryParams } from '../../app/api.ts'

/** A range of shop-local days `YYYY-MM-DD`; sent unpadded (spec §9). */
export type DayRange = { from: string; to: string }

const unreadable = () => new ApiError(200, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')

async function read<S extends z.ZodType>(schema: S, path: string, params: QueryParams, signal?: AbortSignal) {
  const parsed = schema.safeParse(await apiGet<unknown>(path, params, { signal }))
  if (!parsed.success) throw unreadable()
  return parsed.data as z.infer<S>
}

const rangeParams = (r: DayRange) => ({ startDate: unpaddedDate(r.from), endDate: unpaddedDate(r.to) })

export type CountPath =
  | 'daily-report/active-contract'
  | 'daily-report/new-contract'
  | 'daily-report/cancel'
  | 'daily-report/pause'
  | 'cumulative/failure'

export const analyticsApi = {
  counts: (path: CountPath, r: DayRange, signal?: AbortSignal): Promise<DailyCount[]> =>
    read(ZDailyCounts, `/${path}`, rangeParams(r), signal),
  sales: (r: DayRange, signal?: AbortSignal): Promise<SalesPoint[]> =>
    read(ZSalesSeries, '/daily-report/subtotal', rangeParams(r), signal),
  currencies: (r: DayRange, signal?: AbortSignal) =>
    read(ZCurrencyList, '/daily-report/subtotal/currency', rangeParams(r), signal),
  current: (signal?: AbortSignal) => read(ZCurrentCount, '/current/active-contract', {}, signal),
  persistence: (
    q: { baseDate: string; sellingPlanGroupId?: string; source?: string },
    signal?: AbortSignal,
  ): Promise<PersistenceRate> =>
    read(
      ZPersistenceRate,
      '/subscriptions/persistence-rate',
      { ...q, baseDate: unpaddedDate(q.baseDate) },
      signal,
    ),
  traffic: (r: DayRange, filters: Record<string, string>, signal?: AbortSignal) =>
    read(ZTrafficReport, '/traffic-actuation', { ...rangeParams(r), ...filters }, signal),
  trafficConditions: (signal?: AbortSignal) =>
    read(ZTrafficConditions, '/traffic-actuation/condition', {}, signal),
  pixelSettings: (signal?: AbortSignal) => read(ZPixelSettings, '/traffic/pixel-settings', {}, signal),
  groups: async (signal?: AbortSignal) =>
    (
      await apiGet<{ groups: Array<{ id: string; name: string }> }>(
        '/subscriptions/sellingPlanGroups',
        {},
        { signal },
      )
    ).groups,
}
