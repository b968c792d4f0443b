import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ACCESS_SCOPES } from './demo-data/shop-info.ts'
import { generateShop } from './demo-data.ts'
import type { ShopState } from './records.ts'

export const STATE_FILE = 'emulator-state.json'
const VERSION = 1

/** A shop is saved whole, or (when too big to save) as the recipe that regenerates it. */
type SavedShop =
  | { full: ShopState }
  | { regenerate: { domain: string } & ShopState['generatedWith'] & { accessToken: string } }
type SavedState = { version: number; shops: SavedShop[] }

export function loadState(dataDir: string): ShopState[] | null {
  let text: string
  try {
    text = readFileSync(join(dataDir, STATE_FILE), 'utf8')
  } catch {
    return null
  }
  const saved = JSON.parse(text) as SavedState
  if (saved.version !== VERSION)
    throw new Error(`${STATE_FILE} has version ${saved.version}, expected ${VERSION}`)
  return saved.shops.map((s) => {
    if ('full' in s) return withCurrentScopes(s.full)
    const r = s.regenerate
    const shop = generateShop({ ...r, now: new Date(r.now) })
    shop.installation.accessToken = r.accessToken
    return shop
  })
}

/**
 * Writes atomically (temp file + rename) so a crash mid-write never leaves half a state file.
 * Shops above `maxSavedContracts` are stored as their generation recipe: changes to them are lost
 * on restart, a trade the benchmarks accept to avoid writing hundreds of megabytes.
 */
export function saveState(dataDir: string, shops: Iterable<ShopState>, maxSavedContracts: number): void {
  mkdirSync(dataDir, { recursive: true })
  const saved: SavedState = { version: VERSION, shops: [] }
  for (const shop of shops) {
    if (shop.contracts.length <= maxSavedContracts) saved.shops.push({ full: shop })
    else {
      saved.shops.push({
        regenerate: {
          domain: shop.info.myshopifyDomain,
          ...shop.generatedWith,
          accessToken: shop.installation.accessToken,
        },
      })
    }
  }
  const target = join(dataDir, STATE_FILE)
  const tmp = `${target}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(saved))
  renameSync(tmp, target)
}

/**
 * A state saved by an older version holds the scopes the app asked for then: the app's managed
 * installation grants what its configuration asks for now, as the platform does once the
 * merchant accepts the update; but never a scope the merchant declined (`declinedScopes`).
 */
function withCurrentScopes(shop: ShopState): ShopState {
  const declined = shop.installation.declinedScopes ?? []
  const missing = ACCESS_SCOPES.filter(
    (scope) => !shop.installation.scopes.includes(scope) && !declined.includes(scope),
  )
  if (missing.length > 0) shop.installation.scopes = [...shop.installation.scopes, ...missing]
  return shop
}
