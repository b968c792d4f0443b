import type { Db } from '../db/pool.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { fetchSubscriptionContractIdRange } from '../platform/operations/subscription-contract-id-range.ts'
import {
  type ContractIdRange,
  subscriptionContractsBulkQuery,
} from '../platform/operations/subscription-contracts-bulk-query.ts'
import {
  type BulkOptions,
  type BulkReport,
  bulkReport,
  ingestContracts,
  retryIngest,
  startBulkQuery,
  waitForBulkOperation,
} from './bulk-sync.ts'

/**
 * The first sync's contracts export in parts by id range (ADR 0032). The platform runs one bulk
 * query at a time and the app can read a file only once it is COMPLETED, so one export leaves
 * the whole download and write after the platform's last second. Split in parts, part n + 1
 * runs on the platform while part n is written, and only the last part's write is left after
 * it: ~20,000 contracts a part, at most 8.
 */
export const CONTRACTS_PER_PART = 20_000
export const MAX_CONTRACT_PARTS = 8

type BulkDone = Awaited<ReturnType<typeof waitForBulkOperation>>

/** How many parts for a shop of about `expected` contracts (1: one export of everything). */
export function contractPartCount(expected: number, perPart = CONTRACTS_PER_PART): number {
  return Math.min(MAX_CONTRACT_PARTS, Math.max(1, Math.round(expected / perPart)))
}

/** `parts` contiguous id ranges covering `range` (fewer when it holds fewer ids). */
export function splitIdRange(range: ContractIdRange, parts: number): ContractIdRange[] {
  const span = range.to - range.from + 1
  const n = Math.max(1, Math.min(parts, span))
  const out: ContractIdRange[] = []
  for (let i = 0; i < n; i++) {
    const from = range.from + Math.floor((i * span) / n)
    const to = i === n - 1 ? range.to : range.from + Math.floor(((i + 1) * span) / n) - 1
    out.push({ from, to })
  }
  return out
}

/** The parts to export: null alone means one export of every contract. */
export async function planContractParts(
  client: AdminClient,
  expected: number,
  opts: BulkOptions = {},
): Promise<Array<ContractIdRange | null>> {
  const count = contractPartCount(expected, opts.contractsPerPart)
  if (count <= 1) return [null]
  const range = await fetchSubscriptionContractIdRange(client)
  return range ? splitIdRange(range, count) : [null]
}

/** Plans the parts for a shop of about `expected` contracts and starts their exports. */
export async function startContractExports(
  client: AdminClient,
  expected: number,
  opts: BulkOptions,
): Promise<Array<Promise<BulkDone>>> {
  return chainContractExports(client, await planContractParts(client, expected, opts), opts)
}

/**
 * Starts the exports one after the other on the platform (each as soon as the one before is
 * COMPLETED, whatever the app is writing meanwhile); one promise per part. A part that fails
 * fails the ones after it.
 */
export function chainContractExports(
  client: AdminClient,
  parts: Array<ContractIdRange | null>,
  opts: BulkOptions,
): Array<Promise<BulkDone>> {
  const exports: Array<Promise<BulkDone>> = []
  let previous: Promise<unknown> = Promise.resolve()
  for (const part of parts) {
    const done = previous.then(async () =>
      waitForBulkOperation(
        client,
        await startBulkQuery(client, subscriptionContractsBulkQuery(part), opts),
        opts,
      ),
    )
    // Awaited in order by ingestContractExports; a failure while an earlier part is written
    // would otherwise be unhandled.
    done.catch(() => {})
    exports.push(done)
    previous = done
  }
  return exports
}

export type ContractsWritten = { contracts: number; events: number; orders: number; reports: BulkReport[] }

/**
 * Writes each part's file as soon as it is COMPLETED, in order. `onProgress` gets the running
 * totals. Events and orders written by an attempt that broke off stay written; a retry of the
 * part adds only the rest.
 */
export async function ingestContractExports(
  db: Db,
  shopId: string,
  exports: Array<Promise<BulkDone>>,
  opts: BulkOptions,
  onProgress: (written: Omit<ContractsWritten, 'reports'>) => void,
): Promise<ContractsWritten> {
  const total: ContractsWritten = { contracts: 0, events: 0, orders: 0, reports: [] }
  for (const pending of exports) {
    const done = await pending
    const t0 = Date.now()
    const before = { ...total }
    const written = await retryIngest(
      opts,
      () =>
        ingestContracts(db, shopId, done.operation.url, {
          ...opts,
          onBatch: (contracts, events, orders) => {
            total.contracts = before.contracts + contracts
            total.events = before.events + events
            total.orders = before.orders + orders
            onProgress(total)
          },
        }),
      () => {
        before.events = total.events
        before.orders = total.orders
      },
    )
    total.contracts = before.contracts + written.contracts
    total.events = before.events + written.events
    total.orders = before.orders + written.orders
    total.reports.push(bulkReport('contracts', done, Date.now() - t0))
  }
  return total
}
