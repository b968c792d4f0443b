import type { AdminClient } from '../../platform/admin-client.ts'
import { setMetafields } from '../../platform/operations/metafields-set.ts'
import { fetchShopifyFunctions } from '../../platform/operations/shopify-functions.ts'
import { createValidation } from '../../platform/operations/validation-create.ts'
import { fetchValidations } from '../../platform/operations/validations.ts'
import type { StorefrontBox } from './storefront.ts'

// The boxes' rules at the cart and at checkout (ADR 0038): the app's cart and checkout
// validation function (extensions/teiki-box-rules) refuses a box whose selection breaks its
// minimum or maximum. A function reads nothing but its input query, so the rules travel in the
// validation's own metafield teiki.box_rules, which its query names; the app creates the
// validation (enabled) the first time a box is saved and rewrites the metafield on every save.

/** The function's name in its shopify.extension.toml: its title among the app's functions. */
export const BOX_RULES_FUNCTION = 'teiki-box-rules'
/** The validation as the merchant sees it in Settings → Checkout → Checkout rules. */
export const BOX_RULES_TITLE = '詰め合わせボックスの選択数'
export const BOX_RULES_METAFIELD = { namespace: 'teiki', key: 'box_rules' } as const

/** What the function reads (extensions/teiki-box-rules/src/run.ts, `rulesOf`). */
export type BoxRules = {
  boxes: Array<Pick<StorefrontBox, 'id' | 'name' | 'minSelection' | 'maxSelection'>>
}

export const boxRulesOf = (boxes: readonly StorefrontBox[]): BoxRules => ({
  boxes: boxes.map(({ id, name, minSelection, maxSelection }) => ({ id, name, minSelection, maxSelection })),
})

/** The app's box rules function is not on the platform (the app was not deployed with it). */
export class BoxRulesFunctionMissing extends Error {
  constructor() {
    super(`the ${BOX_RULES_FUNCTION} function is not deployed`)
  }
}

/**
 * Writes the rules of `boxes` (the storefront's complete boxes) to the app's validation, creating
 * and enabling it first when the shop has none. A validation the merchant turned off stays off:
 * its rules are kept current for when it is turned on again.
 */
export async function publishBoxRules(client: AdminClient, boxes: readonly StorefrontBox[]): Promise<void> {
  const functions = await fetchShopifyFunctions(client, 'cart_checkout_validation')
  const fn = functions.find((f) => f.title === BOX_RULES_FUNCTION)
  if (!fn) throw new BoxRulesFunctionMissing()
  const metafield = {
    ...BOX_RULES_METAFIELD,
    type: 'json' as const,
    value: JSON.stringify(boxRulesOf(boxes)),
  }
  const existing = (await fetchValidations(client)).find((v) => v.shopifyFunction.id === fn.id)
  if (existing) {
    await setMetafields(client, [{ ownerId: existing.id, ...metafield }])
    return
  }
  await createValidation(client, {
    functionId: fn.id,
    title: BOX_RULES_TITLE,
    enable: true,
    blockOnFailure: false,
    metafields: [metafield],
  })
}
