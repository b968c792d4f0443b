import { type DbClient, queryRow } from '../../db/pool.ts'

// SQL of the shop's web pixel on the platform (migration 0030, columns of traffic_pixel_keys).

export type PixelStateRow = {
  web_pixel_id: string | null
  pixel_settings: Record<string, unknown> | null
  pixel_connected_at: Date | null
  pixel_error: string | null
  pixel_checked_at: Date | null
}

/** What the app knows of the shop's pixel; null before the shop's pixel key exists. */
export function pixelState(db: DbClient, shopId: string) {
  return queryRow<PixelStateRow>(
    db,
    `select web_pixel_id, pixel_settings, pixel_connected_at, pixel_error, pixel_checked_at
     from traffic_pixel_keys where shop_id = $1`,
    [shopId],
  )
}

/**
 * The platform holds pixel `id` with `settings` (it answered so): the error is cleared. The
 * connection date moves when the platform's pixel was created or changed, and stays when it
 * was only confirmed.
 */
export async function recordPixelConnected(
  db: DbClient,
  shopId: string,
  row: { id: string; settings: Record<string, unknown>; changed: boolean },
): Promise<void> {
  await db.query(
    `update traffic_pixel_keys set web_pixel_id = $2, pixel_settings = $3::jsonb,
       pixel_connected_at = case when $4 or pixel_connected_at is null or web_pixel_id is distinct from $2
                                 then now() else pixel_connected_at end,
       pixel_error = null, pixel_checked_at = now()
     where shop_id = $1`,
    [shopId, row.id, JSON.stringify(row.settings), row.changed],
  )
}

/** The last try failed: why, in Japanese. What the platform holds (id, settings) is left as it was. */
export async function recordPixelFailed(db: DbClient, shopId: string, message: string): Promise<void> {
  await db.query(
    'update traffic_pixel_keys set pixel_error = $2, pixel_checked_at = now() where shop_id = $1',
    [shopId, message],
  )
}
