/**
 * Standalone emulator: `npx tsx packages/shopify-emulator/src/cli.ts --port 3001 --data-dir .data`
 * Options: --port, --host, --data-dir, --seed, --contracts (demo shop size), --no-throttle,
 * --plan (shop plan, picks the rate limit), --api-key / --api-secret (the app's client id and
 * secret: session tokens, token exchange, webhook HMAC), --webhook-url and --webhook-topics
 * (comma list; app-level subscriptions, like shopify.app.toml), --controls (the test controls,
 * `POST /emulator/faults`, for a test fixture; off by default), --theme-files-exemption (the app
 * holds Shopify's exemption to write theme files; off by default, as for nearly every app),
 * --declined-scopes (comma list the demo shop's merchant has not granted, e.g. read_all_orders).
 */
import { parseArgs } from 'node:util'
import { DEMO_DOMAIN } from './demo-data.ts'
import { GRAPHQL_PATH } from './http.ts'
import { createEmulator } from './server.ts'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3001' },
    host: { type: 'string', default: '127.0.0.1' },
    'data-dir': { type: 'string' },
    seed: { type: 'string', default: '1' },
    contracts: { type: 'string', default: '320' },
    'no-throttle': { type: 'boolean', default: false },
    plan: { type: 'string' },
    'api-key': { type: 'string' },
    'api-secret': { type: 'string' },
    'webhook-url': { type: 'string' },
    'webhook-topics': { type: 'string' },
    controls: { type: 'boolean', default: false },
    'theme-files-exemption': { type: 'boolean', default: false },
    'declined-scopes': { type: 'string' },
  },
})

const emulator = await createEmulator({
  dataDir: values['data-dir'],
  seed: Number(values.seed),
  throttle: !values['no-throttle'],
  shops: [
    {
      domain: DEMO_DOMAIN,
      contracts: Number(values.contracts),
      plan: values.plan,
      declinedScopes: values['declined-scopes']?.split(',').map((s) => s.trim()),
    },
  ],
  themeFilesExemption: values['theme-files-exemption'],
  apiKey: values['api-key'],
  apiSecret: values['api-secret'],
  controls: values.controls,
  webhooks: {
    callbackUrl: values['webhook-url'],
    topics: values['webhook-topics']?.split(',').map((t) => t.trim()),
  },
})
const { url } = await emulator.listen(Number(values.port), values.host)
const { accessToken } = emulator.install(DEMO_DOMAIN)
console.log(`Shopify Admin API emulator (2025-04) listening on ${url}`)
console.log(`  GraphQL endpoint: ${url}${GRAPHQL_PATH}`)
console.log(`  shop:             ${DEMO_DOMAIN}`)
console.log(`  access token:     ${accessToken}`)

const stop = async () => {
  await emulator.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
