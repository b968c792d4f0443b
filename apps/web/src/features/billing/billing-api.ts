import {
  type BillingRun,
  type BillingSettings,
  type UpcomingChargesResponse,
  ZBillingRunsResponse,
  ZBillingSettings,
  ZUpcomingChargesResponse,
} from '@teiki/contract'
import { ApiError, api } from '../../app/api.ts'

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

/**
 * The billing screens check these answers once more (they render amounts and dates straight from
 * them, and an older server may answer a shape that lacks a field): an answer the schema refuses
 * is 「読み取れませんでした」, not a page of NaN.
 */
export const httpBillingApi: BillingApi = {
  getSettings: async () => {
    const parsed = ZBillingSettings.safeParse(await api('GET /billing-settings'))
    if (!parsed.success) throw unreadable()
    return parsed.data
  },
  saveSettings: async (settings) => {
    const answer = await api('PUT /billing-settings', { body: settings })
    // The server answers the stored settings; an empty or partial answer means it stored what was sent.
    const parsed = ZBillingSettings.safeParse(answer)
    return parsed.success ? parsed.data : settings
  },
  upcoming: async ({ days, offset }, init = {}) => {
    const query = { days, offset, limit: UPCOMING_PAGE_SIZE }
    const parsed = ZUpcomingChargesResponse.safeParse(await api('GET /billing/upcoming', { query }, init))
    if (!parsed.success) throw unreadable()
    return parsed.data
  },
  runs: async (limit) => {
    const parsed = ZBillingRunsResponse.safeParse(await api('GET /billing/runs', { query: { limit } }))
    if (!parsed.success) throw unreadable()
    return parsed.data.runs
  },
}
