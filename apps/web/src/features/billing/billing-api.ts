import {
  type BillingRun,
  type BillingSettings,
  type UpcomingChargesResponse,
  ZBillingRunsResponse,
  ZBillingSettings,
  ZUpcomingChargesResponse,
} from '@teiki/contract'
import { ApiError, apiGet, apiPut } from '../../app/api.ts'

/** Rows per page of 今後の請求予定. */
export const UPCOMING_PAGE_SIZE = 20

export type UpcomingQuery = { days: number; offset: number }

/** The billing endpoints the pages use (an interface so the flows can be tested without a server). */
export type BillingApi = {
  getSettings: () => Promise<BillingSettings>
  /** PUTs the whole object; answers what the server stored. */
  saveSettings: (settings: BillingSettings) => Promise<BillingSettings>
  upcoming: (query: UpcomingQuery, init?: { signal?: AbortSignal }) => Promise<UpcomingChargesResponse>
  /** The latest billing runs, newest first. */
  runs: (limit: number) => Promise<BillingRun[]>
}

const unreadable = () => new ApiError(200, 'INVALID_RESPONSE', 'サーバーの応答を読み取れませんでした')

export const httpBillingApi: BillingApi = {
  getSettings: async () => {
    const parsed = ZBillingSettings.safeParse(await apiGet<unknown>('/billing-settings'))
    if (!parsed.success) throw unreadable()
    return parsed.data
  },
  saveSettings: async (settings) => {
    const answer = await apiPut<unknown>('/billing-settings', settings satisfies BillingSettings)
    // The server answers the stored settings; an empty or partial answer means it stored what was sent.
    const parsed = ZBillingSettings.safeParse(answer)
    return parsed.success ? parsed.data : settings
  },
  upcoming: async ({ days, offset }, init = {}) => {
    const data = await apiGet<unknown>(
      '/billing/upcoming',
      { days, offset, limit: UPCOMING_PAGE_SIZE },
      init.signal ? { signal: init.signal } : {},
    )
    const parsed = ZUpcomingChargesResponse.safeParse(data)
    if (!parsed.success) throw unreadable()
    return parsed.data
  },
  runs: async (limit) => {
    const parsed = ZBillingRunsResponse.safeParse(await apiGet<unknown>('/billing/runs', { limit }))
    if (!parsed.success) throw unreadable()
    return parsed.data.runs
  },
}
