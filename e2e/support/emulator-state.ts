import { readFileSync } from 'node:fs'
import { join } from 'node:path'

type State = {
  shops: Array<{
    full: {
      customers: Array<{ id: number; email: string | null; displayName: string }>
      contracts: Array<{
        id: number
        status: string
        customerId: number
        lines: Array<{ variantId: number }>
      }>
    }
  }>
}

/**
 * The platform's own truth for the demo shop, read from the emulator's saved state: the
 * test checks what the app shows against what the platform holds.
 */
export function demoShopTruth(dataDir: string) {
  const state = JSON.parse(readFileSync(join(dataDir, 'emulator', 'emulator-state.json'), 'utf8')) as State
  const shop = state.shops[0]!.full
  const newestFirst = (ids: number[]) => ids.sort((a, b) => b - a).map(String)
  return {
    contracts: shop.contracts,
    customers: shop.customers,
    contractsOfCustomer: (customerId: number) =>
      newestFirst(shop.contracts.filter((c) => c.customerId === customerId).map((c) => c.id)),
    contractsWithVariant: (variantId: number) =>
      newestFirst(
        shop.contracts.filter((c) => c.lines.some((l) => l.variantId === variantId)).map((c) => c.id),
      ),
  }
}
