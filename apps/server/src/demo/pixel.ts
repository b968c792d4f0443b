import type { Db } from '../db/pool.ts'
import { createPixelConnector } from '../features/traffic/pixel-connection.ts'
import { AppError } from '../http/app-error.ts'
import type { ShopClients } from '../platform/shop-clients.ts'
import type { ShopRow } from '../platform/shops-repo.ts'

/**
 * The demo shop's web pixel, connected at each start as an install connects a real shop's
 * (`webPixelCreate`, or `webPixelUpdate` when the app's URL changed since the last start), so
 * browsing the emulated store (`storeUrl`) and buying there reaches 流入元 at once: the
 * emulated store runs the pixel extension with these settings (packages/shopify-emulator,
 * storefront/web-pixels.ts). Returns the line the start prints.
 */
export async function connectDemoPixel(
  db: Db,
  shop: ShopRow,
  clients: ShopClients,
  publicUrl: () => string | undefined,
  storeUrl: string,
): Promise<string> {
  try {
    await createPixelConnector({ db, clients, publicUrl }).ensure(shop)
    return `ウェブピクセルを接続しました。デモストアでの閲覧と購入が流入元に記録されます（例: ${storeUrl}?utm_source=instagram&utm_medium=social）`
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return `ウェブピクセルを接続できませんでした: ${error.message}`
  }
}
