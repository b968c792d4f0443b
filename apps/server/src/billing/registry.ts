import type { BillingEngine } from './engine.ts'

/**
 * The billing engine of the app running in this process, for code the app does not hand it
 * to: the webhook topic handlers (their context carries the shop and a client, not the app)
 * and the contract edits built by their routes. buildApp registers its engine and removes it
 * on close; a process runs one app, tests one at a time, so the latest registered one is the
 * app's. Without one (a bare script), the webhook handler only mirrors outcomes and the poll
 * of the next billing run applies them.
 */
const engines: BillingEngine[] = []

export function registerBillingEngine(engine: BillingEngine): () => void {
  engines.push(engine)
  return () => {
    const at = engines.lastIndexOf(engine)
    if (at >= 0) engines.splice(at, 1)
  }
}

export function activeBillingEngine(): BillingEngine | undefined {
  return engines.at(-1)
}
