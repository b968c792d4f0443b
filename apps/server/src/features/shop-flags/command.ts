import type { DbClient } from '../../db/pool.ts'
import { findInstalledShop } from '../../platform/shops-repo.ts'
import { isShopFlag, SHOP_FLAGS, type ShopFlag, type ShopFlags, setShopFlag, shopFlags } from './service.ts'

/** What each flag changes (printed by `npm run flags -- --help`). */
export const FLAG_EFFECTS: Record<ShopFlag, string> = {
  test_shop:
    'test shop: app plan charges are test charges (nothing billed) and the app is usable without a paid plan',
  two_customer_groups: 'my-page target variants may be set for customer group 2 as well as group 1',
  parent_products:
    'selling plan groups may name parent variants (/selling-plan-groups/{id}/variants/{v}/parent)',
  template_test:
    "customers' mails go to the shop's own address (custom shop mail), marked with the customer's",
  delivery_prep_days:
    'delivery prep days may be changed whatever the contract count (as the プロ plan allows)',
}

export type FlagChange = { flag: ShopFlag; enabled: boolean }

/** `test_shop=on` → a change; an error message (English, for the operator) otherwise. */
export function parseFlagSetting(text: string): FlagChange | string {
  const [name, value, ...rest] = text.split('=')
  if (!name || !isShopFlag(name)) return `unknown flag "${name ?? ''}" (flags: ${SHOP_FLAGS.join(', ')})`
  const on = ['on', 'true', '1'].includes(value ?? '')
  const off = ['off', 'false', '0'].includes(value ?? '')
  if (rest.length > 0 || (!on && !off)) return `"${text}": write ${name}=on or ${name}=off`
  return { flag: name, enabled: on }
}

/**
 * Applies the changes to the installed shop (all in one transaction by the caller's `db`) and
 * answers its flags after; null when no installed shop has that domain.
 */
export async function applyFlagChanges(
  db: DbClient,
  domain: string,
  changes: FlagChange[],
): Promise<ShopFlags | null> {
  const shop = await findInstalledShop(db, domain)
  if (!shop) return null
  for (const change of changes) await setShopFlag(db, shop.id, change.flag, change.enabled)
  return shopFlags(db, shop.id)
}
