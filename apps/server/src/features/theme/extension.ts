import { readFileSync } from 'node:fs'

/**
 * Teiki's theme app extension as themes name it. A template holds an app block as
 * `shopify://apps/<app handle>/blocks/<block handle>/<extension uid>`; the uid is the one in
 * extensions/teiki-subscriptions/shopify.extension.toml (read once, at start).
 */
export const APP_HANDLE = 'teiki'
export const PLANS_BLOCK_HANDLE = 'subscription-plans'
/** The key the block gets in the template's main section when the app adds it. */
export const PLANS_BLOCK_KEY = 'teiki_subscription_plans'

const TOML = new URL('../../../../../extensions/teiki-subscriptions/shopify.extension.toml', import.meta.url)

function extensionUid(): string {
  const uid = /^uid\s*=\s*"([^"]+)"/m.exec(readFileSync(TOML, 'utf8'))?.[1]
  if (!uid) throw new Error(`${TOML.pathname} has no uid`)
  return uid
}

export const PLANS_BLOCK_TYPE = `shopify://apps/${APP_HANDLE}/blocks/${PLANS_BLOCK_HANDLE}/${extensionUid()}`

/**
 * The theme editor opened on `template` of the theme, adding the plans block to its main section
 * (shopify.dev, "Deep linking": addAppBlockId = <api key>/<block handle>, target=mainSection).
 */
export function themeEditorUrl(
  adminOrigin: string,
  themeId: string,
  template: string,
  apiKey: string,
): string {
  const params = new URLSearchParams({
    template,
    addAppBlockId: `${apiKey}/${PLANS_BLOCK_HANDLE}`,
    target: 'mainSection',
  })
  return `${adminOrigin}/admin/themes/${themeId}/editor?${params.toString().replace('%2F', '/')}`
}
