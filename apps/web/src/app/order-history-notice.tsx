import { Banner } from '@shopify/polaris'
import type { OrderHistoryResponse } from '@teiki/contract'
import { orderHistoryNotice } from '@teiki/domain'
import { useEffect } from 'react'
import { reportError } from './report-error.ts'
import { useApi } from './use-api.ts'

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

/**
 * How much of the shop's order history the app holds (GET /order-history, cached for the page
 * load): without read_all_orders the platform gave the first sync 60 days of orders, and the
 * screens built on orders (分析, 継続率, LTV, 顧客詳細) say from which date they are complete.
 */
export function OrderHistoryNotice({ shownFrom }: { shownFrom: string | null }) {
  const { data, error } = useApi('GET /order-history', undefined, { revalidateIfStale: false })
  // Not knowing the history must not hide the figures: the banner is left out, and reported.
  useEffect(() => {
    if (error) reportError(error, 'order-history check failed')
  }, [error])
  return <OrderHistoryBanner history={data ?? null} shownFrom={shownFrom} />
}
