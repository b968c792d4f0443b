// A platform emulator in its own process for the sync benchmark, so the synced process's
// memory and CPU are the app's alone. Prints one line `EMULATOR {json}` once listening.
// Usage: tsx bench/emulator-process.ts --domain x.myshopify.com --contracts 100000 [--plan Basic]
import { parseArgs } from 'node:util'
import { createEmulator } from '@teiki/shopify-emulator'

const { values } = parseArgs({
  options: {
    domain: { type: 'string', default: 'bench-sync.myshopify.com' },
    contracts: { type: 'string', default: '100000' },
    plan: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
})
const started = Date.now()
const emulator = await createEmulator({
  seed: Number(values.seed),
  shops: [{ domain: values.domain, contracts: Number(values.contracts), plan: values.plan }],
})
const { url } = await emulator.listen(0)
const { accessToken } = emulator.install(values.domain)
const shop = emulator.store.shop(values.domain)!
console.log(
  `EMULATOR ${JSON.stringify({
    url,
    accessToken,
    domain: values.domain,
    contracts: shop.contracts.length,
    customers: shop.customers.length,
    lines: shop.contracts.reduce((n, c) => n + c.lines.length, 0),
    plan: shop.info.plan.displayName,
    generatedMs: Date.now() - started,
  })}`,
)
const stop = async () => {
  await emulator.close()
  process.exit(0)
}
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
