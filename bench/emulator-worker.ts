// The platform of the billing and merchant benches, in a worker thread of its own: on the
// platform the GraphQL execution, the charges' settlement and the webhook deliveries run on
// Shopify's machines, not on the app's event loop. In the bench's own thread (before issue 21)
// the emulator took a fifth of the one thread the app had, and the app's figures paid for it.
// The bench talks to it through `RemoteEmulator` (bench/remote-emulator.ts): one message per call.
import { parentPort, workerData } from 'node:worker_threads'
import { createEmulator, type Emulator, type EmulatorOptions } from '@teiki/shopify-emulator'

export type WorkerSetup = Pick<
  EmulatorOptions,
  'shops' | 'apiKey' | 'apiSecret' | 'billingDelayMs' | 'webhooks'
> & {
  now: string
}

type Call = { id: number; method: string; args: unknown[] }

const setup = workerData as WorkerSetup
const emulator: Emulator = await createEmulator({ ...setup, now: new Date(setup.now) })

/** What the bench may ask of the platform: only these, each answering plain data. */
const methods: Record<string, (...args: never[]) => unknown> = {
  listen: async (port: number) => (await emulator.listen(port)).url,
  install: (domain: string) => emulator.install(domain),
  setCallbackUrl: (url: string) => emulator.webhooks.setCallbackUrl(url),
  setPlan: (domain: string, plan: string) => emulator.setPlan(domain, plan),
  graphql: (domain: string, request: { query: string; variables?: Record<string, unknown> }) =>
    emulator.graphql(domain, request),
  idle: (ms: number) => emulator.idle(ms),
  callLogLength: () => emulator.callLog.length,
  deliveriesLength: () => emulator.webhooks.deliveries.length,
  /** The call log from `from` on, for one shop, without the variables (they are large and unused). */
  callLog: (from: number, shop: string) =>
    emulator.callLog
      .slice(from)
      .filter((e) => e.shop === shop)
      .map(({ variables: _, ...e }) => e),
  deliveries: (from: number) => emulator.webhooks.deliveries.slice(from).map(({ body: _, ...d }) => d),
  /** Billing attempts per contract, for the duplicates count. */
  attemptCounts: (domain: string) =>
    Object.fromEntries(shopOf(domain).contracts.map((c) => [c.id, c.billingAttemptIds.length])),
  attemptsTotal: (domain: string) => shopOf(domain).billingAttempts.length,
  activeContractIds: (domain: string) =>
    shopOf(domain)
      .contracts.filter((c) => c.status === 'ACTIVE')
      .map((c) => c.id),
  /**
   * The platform's side of a billing day: `due` chargeable ACTIVE contracts (a valid card not
   * expiring before 2027) due at `dueAt`, every other ACTIVE one at `far`. Answers the due ids.
   */
  arrangeDue: (domain: string, due: number, dueAt: number, far: number) => {
    const platform = shopOf(domain)
    const chargeable = platform.contracts.filter((c) => {
      const pm = platform.paymentMethods.find((p) => p.id === c.paymentMethodId)
      const card = pm?.instrument as { expiryYear?: number } | undefined
      return c.status === 'ACTIVE' && pm && pm.revokedAt === null && (card?.expiryYear ?? 9999) >= 2027
    })
    if (chargeable.length < due) throw new Error(`only ${chargeable.length} chargeable contracts`)
    const dueIds = chargeable.slice(0, due).map((c) => c.id)
    const isDue = new Set(dueIds)
    for (const c of platform.contracts)
      if (c.status === 'ACTIVE') c.nextBillingDate = isDue.has(c.id) ? dueAt : far
    return dueIds
  },
  close: () => emulator.close(),
}

function shopOf(domain: string) {
  const shop = emulator.store.shop(domain)
  if (!shop) throw new Error(`unknown shop ${domain}`)
  return shop
}

parentPort!.on('message', async ({ id, method, args }: Call) => {
  try {
    const fn = methods[method]
    if (!fn) throw new Error(`no emulator method ${method}`)
    parentPort!.postMessage({ id, result: await (fn as (...a: unknown[]) => unknown)(...args) })
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message })
  }
})
parentPort!.postMessage({ ready: true })
