import type { OrderHistoryResponse } from '@teiki/contract'
import { orderHistoryMessage, ordersCompleteFrom } from '@teiki/domain'
import type { DbClient } from '../../db/pool.ts'
import { outsideRequest } from '../../http/request-context.ts'
import { fetchAccessScopes } from '../../platform/operations/access-scopes.ts'
import { grantsAllOrders } from '../../platform/scopes.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import { platformAccess, type ShopRow } from '../../platform/shops-repo.ts'

/**
 * GET /order-history (issue 23): from which day the shop's figures built on orders are
 * complete. Without read_all_orders the platform gave the first sync the last 60 days of
 * orders (sync/full-sync.ts records from when). While that is so, the call asks the platform
 * (at most every `recheckMs`, one point) whether the merchant has granted read_all_orders since;
 * if so it starts the sync that reads every contract's older orders, in the background.
 */
export type OrderHistoryOptions = {
  db: DbClient
  clients: ShopClients
  /** Reads the shop's older orders (a full sync, which sees the scope and reads every contract). */
  readOlderOrders: (shop: ShopRow) => Promise<unknown>
  log: { error(obj: object, msg: string): void }
  /** Least time between two scope checks of a shop (default 60 s). */
  recheckMs?: number
}

const COMPLETE: OrderHistoryResponse = {
  complete: true,
  completeFrom: null,
  message: null,
  detail: null,
  readingOlderOrders: false,
}
const NOT_GRANTED =
  'アプリに全期間の注文の読み取り（read_all_orders）が許可されていないため、Shopify から読み取れたのは最初の同期の60日前以降の注文だけです。' +
  'それより前の注文は売上・継続率・LTV・顧客の購入履歴に含まれません。許可されると、それより前の注文も読み込みます。'
const READING =
  '全期間の注文の読み取りが許可されました。それより前の注文を読み込んでいます。読み込みが終わると、この表示は消えます。'

export function createOrderHistory(opts: OrderHistoryOptions) {
  const recheckMs = opts.recheckMs ?? 60_000
  const checkedAt = new Map<string, number>()
  const reading = new Map<string, Promise<void>>()

  /** Whether the merchant granted read_all_orders since (a platform failure reads as not yet). */
  async function grantedSince(shop: ShopRow): Promise<boolean> {
    if (Date.now() - (checkedAt.get(shop.id) ?? 0) < recheckMs) return false
    checkedAt.set(shop.id, Date.now())
    try {
      return grantsAllOrders(await fetchAccessScopes(opts.clients.clientFor(shop)))
    } catch (error) {
      opts.log.error({ err: error, shop: shop.domain }, 'access scope check failed')
      return false
    }
  }

  return async function orderHistory(shop: ShopRow): Promise<OrderHistoryResponse> {
    const { ordersReadableFrom: from } = await platformAccess(opts.db, shop.id)
    if (from === null) return COMPLETE
    if (!reading.has(shop.id) && (await grantedSince(shop))) {
      // Background work: the request's end must not cut it off (as the first sync at install).
      const run = outsideRequest(() =>
        Promise.resolve()
          .then(() => opts.readOlderOrders(shop))
          .then(() => undefined)
          .catch((error: unknown) =>
            opts.log.error({ err: error, shop: shop.domain }, 'older orders sync failed'),
          )
          .finally(() => reading.delete(shop.id)),
      )
      reading.set(shop.id, run)
    }
    const completeFrom = ordersCompleteFrom(from, shop.iana_timezone)
    const busy = reading.has(shop.id)
    return {
      complete: false,
      completeFrom,
      message: orderHistoryMessage(completeFrom),
      detail: busy ? READING : NOT_GRANTED,
      readingOlderOrders: busy,
    }
  }
}
