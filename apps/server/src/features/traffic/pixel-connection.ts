import { randomBytes } from 'node:crypto'
import type { PixelConnection, PixelSettings } from '@teiki/contract'
import { webPixelErrorsJa, withPlatformDetail } from '@teiki/domain'
import type { Db } from '../../db/pool.ts'
import { AppError } from '../../http/app-error.ts'
import { isAccessDenied, PlatformUserError } from '../../platform/errors.ts'
import { platformError } from '../../platform/merchant-errors.ts'
import { fetchWebPixel, type WebPixel } from '../../platform/operations/web-pixel.ts'
import { createWebPixel } from '../../platform/operations/web-pixel-create.ts'
import { updateWebPixel } from '../../platform/operations/web-pixel-update.ts'
import type { ShopClients } from '../../platform/shop-clients.ts'
import type { ShopRow } from '../../platform/shops-repo.ts'
import { conversionTagsSetting } from '../thank-you/service.ts'
import { type PixelStateRow, pixelState, recordPixelConnected, recordPixelFailed } from './pixel-repo.ts'
import { pixelKey } from './repo.ts'

/**
 * The shop's web pixel on the platform (issue 14, item 5): the app activates its pixel
 * extension with `webPixelCreate`, settings `{ accountID: the shop's pixel key, ingestUrl: the
 * app's public URL + /pixel/events?shop=<domain> }`, or `webPixelUpdate`s it when the platform's
 * settings differ (a new app URL); never a second create (the platform holds one per app per
 * shop: a create that lost a race is TAKEN, and the pixel is read again). Run after install, on
 * the 流入元 screen's read while it is missing or its settings are stale, and by its button.
 * The state is written only after the platform answered (migration 0030): a refusal records its
 * Japanese reason and no pixel id.
 */
export type PixelConnectorOptions = {
  db: Db
  clients: ShopClients
  /** The app's public URL (SHOPIFY_APP_URL; locally, where the server listens); read at each call. */
  publicUrl: () => string | undefined
}

const NO_URL =
  'アプリの公開URLが設定されていないため、ウェブピクセルを接続できません。アプリの提供元にお問い合わせください。'
const ACCESS_DENIED =
  'ウェブピクセルを接続する権限（ピクセルの作成と顧客イベントの読み取り）がアプリにありません。アプリを更新して、新しい権限を承認してください。'
const LABEL = 'ウェブピクセルの接続'

const sameSettings = (a: Record<string, unknown> | null, b: Record<string, unknown>) =>
  a !== null &&
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(b).every(([k, v]) => a[k] === v)

const isTaken = (error: unknown) =>
  error instanceof PlatformUserError && error.userErrors.some((e) => e.code === 'TAKEN')

/** A failure as the merchant reads it (AppError); anything unknown is passed on as it is. */
function connectionError(error: unknown): unknown {
  if (error instanceof AppError) return error
  if (error instanceof PlatformUserError) {
    const { message, detail } = webPixelErrorsJa(error.userErrors)
    const text = withPlatformDetail({
      message: `Shopify が${LABEL}を受け付けませんでした：${message}`,
      detail,
    })
    return new AppError('PLATFORM_USER_ERROR', text, { cause: error })
  }
  if (isAccessDenied(error)) return new AppError('PLATFORM_USER_ERROR', ACCESS_DENIED, { cause: error })
  return platformError(error, LABEL)
}

function connectionOf(row: PixelStateRow | null): PixelConnection {
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  const status = row?.pixel_error ? 'failed' : row?.web_pixel_id ? 'connected' : 'missing'
  return {
    status,
    webPixelId: row?.web_pixel_id ?? null,
    connectedAt: iso(row?.pixel_connected_at ?? null),
    checkedAt: iso(row?.pixel_checked_at ?? null),
    error: row?.pixel_error ?? null,
  }
}

export function createPixelConnector(opts: PixelConnectorOptions) {
  const { db } = opts
  const ingestUrl = (shop: ShopRow, base: string | undefined) =>
    `${(base ?? '').replace(/\/$/, '')}/pixel/events?shop=${encodeURIComponent(shop.domain)}`

  /**
   * The settings the shop's pixel must hold (the pixel key is made on first use): where hits go,
   * and the サンクスページ's 計測タグ it requests on checkout_completed (ADR 0039).
   */
  async function wanted(shop: ShopRow) {
    const accountID = await pixelKey(db, shop.id, randomBytes(18).toString('base64url'))
    const conversionTags = await conversionTagsSetting(db, shop.id)
    return { accountID, ingestUrl: ingestUrl(shop, opts.publicUrl()), conversionTags }
  }

  /** The platform's pixel made to hold `settings`: read, then created or updated. */
  async function sync(
    shop: ShopRow,
    settings: Record<string, unknown>,
  ): Promise<WebPixel & { changed: boolean }> {
    const client = opts.clients.clientFor(shop)
    const bring = async (existing: WebPixel) =>
      sameSettings(existing.settings, settings)
        ? { ...existing, changed: false }
        : { ...(await updateWebPixel(client, existing.id, settings)), changed: true }
    const existing = await fetchWebPixel(client)
    if (existing) return bring(existing)
    try {
      return { ...(await createWebPixel(client, settings)), changed: true }
    } catch (error) {
      // Another process created it between our read and our create: use that one.
      const raced = isTaken(error) ? await fetchWebPixel(client) : null
      if (raced) return bring(raced)
      throw error
    }
  }

  /** Makes the platform hold the shop's pixel with the wanted settings; AppError (recorded) when it cannot. */
  async function ensure(shop: ShopRow): Promise<PixelSettings> {
    const settings = await wanted(shop)
    try {
      if (!/^https?:\/\/[^/]/.test(opts.publicUrl() ?? '')) throw new AppError('CONFLICT', NO_URL)
      const pixel = await sync(shop, settings)
      await recordPixelConnected(db, shop.id, { id: pixel.id, settings, changed: pixel.changed })
    } catch (error) {
      const failure = connectionError(error)
      if (failure instanceof AppError) await recordPixelFailed(db, shop.id, failure.message)
      throw failure
    }
    return { ...settings, connection: connectionOf(await pixelState(db, shop.id)) }
  }

  /**
   * The settings and the connection as the app knows them. A pixel never connected, or whose
   * recorded settings are not the wanted ones (a new app URL), is connected first; a failed one
   * waits for the merchant's button, so a refusal is not sent again on every read.
   */
  async function read(shop: ShopRow): Promise<PixelSettings> {
    const settings = await wanted(shop)
    const state = await pixelState(db, shop.id)
    const stale = !state?.pixel_error && !sameSettings(state?.pixel_settings ?? null, settings)
    if (stale)
      await ensure(shop).catch((error: unknown) => {
        // Recorded as failed and shown with its reason; anything else is a bug.
        if (!(error instanceof AppError)) throw error
      })
    return { ...settings, connection: connectionOf(stale ? await pixelState(db, shop.id) : state) }
  }

  return { ensure, read }
}

export type PixelConnector = ReturnType<typeof createPixelConnector>
