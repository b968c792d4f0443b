import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/server.ts'

export const SHOP = 'mutations.myshopify.com'
export const now = new Date('2025-06-01T03:00:00Z')

/** A small shop with fast timers; throttling off unless the test turns it on; test controls on. */
export function smallEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  return createEmulator({
    now,
    controls: true,
    throttle: false,
    shops: [{ domain: SHOP, contracts: 40 }],
    billingDelayMs: 5,
    bulkDelayMs: 5,
    ...opts,
    webhooks: { retryBaseMs: 5, reorderHoldMs: 500, ...opts.webhooks },
  })
}

/** Runs a document and fails the test on GraphQL errors; returns `data`. */
export async function gql(
  emulator: Emulator,
  query: string,
  variables: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: tests read deep response JSON; the schema checks the shapes
): Promise<any> {
  const res = await emulator.graphql(SHOP, { query, variables })
  if (res.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(res.errors)}`)
  return res.data
}

export type Received = { headers: IncomingHttpHeaders; body: string; at: number }

/** A webhook endpoint that records what arrives and answers `status(n)` for the n-th request (from 1). */
export async function webhookReceiver(status: (n: number) => number = () => 200) {
  const received: Received[] = []
  let n = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      n++
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      res.writeHead(status(n))
      res.end()
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return {
    url,
    received,
    topics: () => received.map((r) => r.headers['x-shopify-topic']),
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((r) => server.close(() => r()))
    },
  }
}
