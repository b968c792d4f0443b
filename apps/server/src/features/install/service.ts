import type { Db } from '../../db/pool.ts'
import { unauthenticated } from '../../http/app-error.ts'
import { outsideRequest } from '../../http/request-context.ts'
import { findInstalledShop, type ShopRow, upsertShopInstall } from '../../platform/shops-repo.ts'
import { exchangeSessionToken } from '../../platform/token-exchange.ts'

export type InstallerOptions = {
  db: Db
  apiKey: string
  apiSecret: string
  adminOrigin: (shop: string) => string
  fetch?: typeof fetch
  /** Called (not awaited) once a shop got its token: the first sync starts here. Errors are logged. */
  onInstalled?: (shop: ShopRow) => void | Promise<void>
  log?: { error(obj: object, msg: string): void }
}

/** Installs `shop` from a verified session token and returns its row. */
export type Installer = (shop: string, sessionToken: string) => Promise<ShopRow>

/**
 * Managed install: the first request of a shop without a token exchanges its (already
 * verified) session token for the offline token. Concurrent first requests of one shop share
 * one exchange (in-process single flight); across processes the upsert is idempotent, so a
 * second exchange only refreshes the same token. Production shops get no standalone secret:
 * secret_hash stays null, which keeps the `secret` login off for them.
 */
export function createInstaller(opts: InstallerOptions): Installer {
  const inFlight = new Map<string, Promise<ShopRow>>()

  async function install(shop: string, sessionToken: string): Promise<ShopRow> {
    // Another request may have finished the install while this one was verifying.
    const existing = await findInstalledShop(opts.db, shop)
    if (existing?.access_token) return existing
    let token: Awaited<ReturnType<typeof exchangeSessionToken>>
    try {
      token = await exchangeSessionToken({
        origin: opts.adminOrigin(shop),
        apiKey: opts.apiKey,
        apiSecret: opts.apiSecret,
        sessionToken,
        fetch: opts.fetch,
      })
    } catch (error) {
      opts.log?.error({ err: error, shop }, 'token exchange failed')
      throw unauthenticated(
        'ストアへのアプリのインストールを完了できませんでした。ページを再読み込みしてください。',
      )
    }
    const row = await upsertShopInstall(opts.db, {
      domain: shop,
      accessToken: token.accessToken,
      scopes: token.scopes,
    })
    // Not awaited: the merchant's first page must not wait for the first sync. It runs as
    // background work: the request's deadline and end must not cut it off, and the merchant's
    // own calls go ahead of it.
    outsideRequest(() =>
      Promise.resolve()
        .then(() => opts.onInstalled?.(row))
        .catch((error: unknown) => opts.log?.error({ err: error, shop }, 'onInstalled hook failed')),
    )
    return row
  }

  return (shop, sessionToken) => {
    let pending = inFlight.get(shop)
    if (!pending) {
      pending = install(shop, sessionToken).finally(() => inFlight.delete(shop))
      inFlight.set(shop, pending)
    }
    return pending
  }
}
