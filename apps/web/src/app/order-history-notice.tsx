import { Banner } from '@shopify/polaris'
import type { OrderHistoryResponse } from '@teiki/contract'
import { orderHistoryNotice } from '@teiki/domain'
import { useEffect, useState } from 'react'
import { apiGet } from './api.ts'
import { reportError } from './report-error.ts'

/**
 * How much of the shop's order history the app holds (GET /order-history), read once per page
 * load: without read_all_orders the platform gave the first sync 60 days of orders, and the
 * screens built on orders (分析, 継続率, LTV, 顧客詳細) say from which date they are complete.
 */
let loaded: Promise<OrderHistoryResponse> | null = null
function loadOrderHistory(): Promise<OrderHistoryResponse> {
  loaded ??= apiGet<OrderHistoryResponse>('/order-history').catch((error: unknown) => {
    loaded = null
    throw error
  })
  return loaded
}

/** The banner itself: nothing when the figures from `shownFrom` on (null: lifetime) are complete. */
export function OrderHistoryBanner({
  history,
  shownFrom,
}: {
  history: OrderHistoryResponse | null
  shownFrom: string | null
}) {
  const notice = history ? orderHistoryNotice(history.completeFrom, shownFrom) : null
  if (!history || !notice) return null
  return (
    <Banner tone="info" title={notice}>
      {history.detail && <p>{history.detail}</p>}
    </Banner>
  )
}

/** Reads the order history once and shows the banner where a screen's figures reach before it. */
export function OrderHistoryNotice({ shownFrom }: { shownFrom: string | null }) {
  const [history, setHistory] = useState<OrderHistoryResponse | null>(null)
  useEffect(() => {
    let cancelled = false
    loadOrderHistory().then(
      (h) => !cancelled && setHistory(h),
      // Not knowing the history must not hide the figures: the banner is left out, and reported.
      (error: unknown) => reportError(error, 'order-history check failed'),
    )
    return () => {
      cancelled = true
    }
  }, [])
  return <OrderHistoryBanner history={history} shownFrom={shownFrom} />
}
