/**
 * Access scopes this version of the app needs. A shop installed with fewer (for example
 * before theme features needed read_themes) must re-authorize: /app-scope-eligibility
 * answers eligible false with the URL that asks for them.
 */
export const REQUIRED_SCOPES = [
  'read_own_subscription_contracts',
  'write_own_subscription_contracts',
  'read_customers',
  'write_customers',
  'read_products',
  'write_products',
  // Orders (write implies read): a renewal's note attributes (配送時間帯, お届け予定日, 定期回数,
  // 出荷SKU) are written on the order the platform created (billing/order-attributes.ts).
  'write_orders',
  'read_themes',
  'write_themes',
  // The script tag list and its clean-up (spec §7 "Batch and misc"): write implies read.
  'write_script_tags',
  // The free-shipping delivery profile of selling plan groups (deliveryProfileCreate/Update,
  // and the locations it ships from).
  'write_shipping',
  'read_locations',
  // The web pixel (流入元): webPixelCreate/Update need both; write_pixels implies read_pixels.
  'write_pixels',
  'read_customer_events',
  // The box rules at the cart and checkout (extensions/teiki-box-rules): validationCreate and
  // the validation's metafield teiki.box_rules; write implies read (the validations query).
  'write_validations',
] as const

/**
 * Asked for with the required ones, but the app works without them: `read_all_orders` (orders
 * older than 60 days; the platform gives the last 60 without it). A shop that has not granted
 * it is not sent to re-authorise; its first sync records from when it holds every order, and
 * the screens built on orders say so (sync/full-sync.ts, GET /order-history).
 */
export const OPTIONAL_SCOPES = ['read_all_orders'] as const

/** Every scope the app asks for (shopify.app.toml, the update's authorize URL). */
export const REQUESTED_SCOPES = [...REQUIRED_SCOPES, ...OPTIONAL_SCOPES] as const

/** Whether the granted scopes include orders older than 60 days. */
export const grantsAllOrders = (granted: readonly string[]): boolean => granted.includes('read_all_orders')

export function missingScopes(granted: readonly string[]): string[] {
  // write_x implies read_x on the platform.
  const have = new Set(
    granted.flatMap((scope) => (scope.startsWith('write_') ? [scope, `read_${scope.slice(6)}`] : [scope])),
  )
  return REQUIRED_SCOPES.filter((scope) => !have.has(scope))
}
