import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseTomlTables } from './web-pixel-extension.ts'

/**
 * The app's deployed checkout UI extension, as the platform knows it after `shopify app deploy`:
 * its handle, its target and module, and whether it may call the network. The emulator reads
 * the repository's own folder (as it reads the pixel and the functions), so the extension that
 * runs on the emulated thank-you page is the one that ships (storefront/checkout-ui.ts).
 */

/** The repository's thank-you block (`extensions/teiki-thank-you`). */
export const DEFAULT_CHECKOUT_UI_EXTENSION_DIR = resolve(
  import.meta.dirname,
  '../../../extensions/teiki-thank-you',
)

/** The targets the emulated store renders (its thank-you page). */
const RENDERED_TARGETS = new Set(['purchase.thank-you.block.render'])

export type CheckoutUiExtension = {
  dir: string
  handle: string
  title: string
  target: string
  /** The module the target runs, relative to `dir` (`./src/index.ts`). */
  module: string
  /** The `network_access` capability: without it the platform refuses the extension's fetch. */
  networkAccess: boolean
}

export function loadCheckoutUiExtension(
  dir: string = DEFAULT_CHECKOUT_UI_EXTENSION_DIR,
): CheckoutUiExtension {
  const tables = parseTomlTables(readFileSync(join(dir, 'shopify.extension.toml'), 'utf8'))
  const ext = tables.get('extensions')
  const targeting = tables.get('extensions.targeting')
  if (ext?.type !== 'ui_extension' || !targeting) throw new Error(`${dir} is not a UI extension`)
  const target = String(targeting.target ?? '')
  if (!RENDERED_TARGETS.has(target))
    throw new Error(`${dir}: target ${target} is not one the emulator renders`)
  const handle = String(ext.handle ?? ext.name ?? '')
  return {
    dir,
    handle,
    title: String(ext.name ?? handle),
    target,
    module: String(targeting.module ?? './src/index.ts'),
    networkAccess: tables.get('extensions.capabilities')?.network_access === true,
  }
}
