import { type DbClient, queryRow, statement } from '../db/pool.ts'

export type ShopRow = {
  id: string
  domain: string
  name: string
  secret_hash: Buffer | null
  access_token: string | null
  scopes: string[]
  currency_code: string
  iana_timezone: string
  primary_domain_url: string | null
  shopify_plan: string | null
  app_plan: unknown
  synced_at: Date | null
}

const SHOP_COLUMNS = `id, domain, name, secret_hash, access_token, scopes, currency_code, iana_timezone,
  primary_domain_url, shopify_plan, app_plan, synced_at`

export function findInstalledShop(db: DbClient, domain: string) {
  return queryRow<ShopRow>(
    db,
    statement(
      'shop-by-domain',
      `select ${SHOP_COLUMNS} from shops where domain = $1 and uninstalled_at is null`,
      [domain],
    ),
  )
}

/** An installed shop by id (jobs and outcomes carry ids); null once it is uninstalled. */
export function findShopById(db: DbClient, shopId: string) {
  return queryRow<ShopRow>(db, `select ${SHOP_COLUMNS} from shops where id = $1 and uninstalled_at is null`, [
    shopId,
  ])
}

/** Creates the shop row on install, or refreshes its token and scopes on a re-install. */
export async function upsertShopInstall(
  db: DbClient,
  input: { domain: string; accessToken: string; scopes: string[]; secretHash?: Buffer | null },
): Promise<ShopRow> {
  const { rows } = await db.query<ShopRow>(
    `insert into shops (domain, access_token, scopes, secret_hash)
     values ($1, $2, $3, $4)
     on conflict (domain) do update set access_token = excluded.access_token, scopes = excluded.scopes,
       secret_hash = coalesce(excluded.secret_hash, shops.secret_hash),
       -- a re-install starts a new installation: an older app/uninstalled must not end it
       installed_at = case when shops.uninstalled_at is null then shops.installed_at else now() end,
       uninstalled_at = null
     returning ${SHOP_COLUMNS}`,
    [input.domain, input.accessToken, input.scopes, input.secretHash ?? null],
  )
  return rows[0]!
}

export async function updateShopDetails(
  db: DbClient,
  shopId: string,
  details: {
    name: string
    currencyCode: string
    ianaTimezone: string
    primaryDomainUrl: string | null
    shopifyPlan: string | null
    appPlan: unknown
    scopes: string[]
    /** The numeric part of the shop's GID: webhooks check the shop their body names against it. */
    platformId: string
    /** A partner development store (`shop.plan.partnerDevelopment`): it passes the page gate. */
    partnerDevelopment: boolean
  },
): Promise<void> {
  await db.query(
    `update shops set name = $2, currency_code = $3, iana_timezone = $4, primary_domain_url = $5,
       shopify_plan = $6, app_plan = $7, scopes = $8, platform_id = $9, partner_development = $10
     where id = $1`,
    [
      shopId,
      details.name,
      details.currencyCode,
      details.ianaTimezone,
      details.primaryDomainUrl,
      details.shopifyPlan,
      JSON.stringify(details.appPlan),
      details.scopes,
      details.platformId,
      details.partnerDevelopment,
    ],
  )
}

/** The app plan as the platform reports it now (after an approval, a webhook, a refresh). */
export async function updateAppPlan(db: DbClient, shopId: string, appPlan: unknown): Promise<void> {
  await db.query('update shops set app_plan = $2 where id = $1', [shopId, JSON.stringify(appPlan)])
}

/**
 * What the platform let the app read and write for a shop (migration 0035): where its order
 * history starts, and whether theme-file writes were refused. The sync and the theme feature
 * write it; every feature may read it, as the shop row.
 */
export type PlatformAccess = {
  /** The mirror holds every order created from this instant on; null: every order. */
  ordersReadableFrom: Date | null
  /** The last time the platform refused a theme-file write; null: never refused. */
  themeFilesDeniedAt: Date | null
}

export async function platformAccess(db: DbClient, shopId: string): Promise<PlatformAccess> {
  const { rows } = await db.query<{ orders_readable_from: Date | null; theme_files_denied_at: Date | null }>(
    'select orders_readable_from, theme_files_denied_at from shops where id = $1',
    [shopId],
  )
  return {
    ordersReadableFrom: rows[0]?.orders_readable_from ?? null,
    themeFilesDeniedAt: rows[0]?.theme_files_denied_at ?? null,
  }
}

/** After a sync: from when the mirror holds every order (null: all of them). */
export async function recordOrdersReadableFrom(
  db: DbClient,
  shopId: string,
  from: Date | null,
): Promise<void> {
  await db.query('update shops set orders_readable_from = $2 where id = $1', [shopId, from])
}

/** The platform refused (a Date) or accepted (null) the app's theme-file write. */
export async function recordThemeFilesDenied(db: DbClient, shopId: string, at: Date | null): Promise<void> {
  await db.query('update shops set theme_files_denied_at = $2 where id = $1', [shopId, at])
}

/** The stored app plan, its row locked for the caller's transaction (plan updates are serialised). */
export async function lockAppPlan(db: DbClient, shopId: string): Promise<unknown> {
  const { rows } = await db.query<{ app_plan: unknown }>(
    'select app_plan from shops where id = $1 for update',
    [shopId],
  )
  return rows[0]?.app_plan ?? null
}

/** Whether the sync found the shop to be a partner development store. */
export async function isPartnerDevelopment(db: DbClient, shopId: string): Promise<boolean> {
  const { rows } = await db.query<{ partner_development: boolean }>(
    'select partner_development from shops where id = $1',
    [shopId],
  )
  return rows[0]?.partner_development ?? false
}
