import type { Db } from '../db/pool.ts'
import { withTransaction } from '../db/pool.ts'
import type { AdminClient } from '../platform/admin-client.ts'
import { PlatformUnavailableError, PlatformUserError } from '../platform/errors.ts'
import { idFromGid } from '../platform/gid.ts'
import { fetchBulkOperation, type PlatformBulkOperation } from '../platform/operations/bulk-operation.ts'
import { runBulkQuery } from '../platform/operations/bulk-operation-run-query.ts'
import type {
  PlatformContractLine,
  PlatformPricingPolicy,
} from '../platform/operations/contract-fragments.ts'
import type { PlatformCustomer } from '../platform/operations/customer-fragments.ts'
import { CUSTOMERS_BULK_QUERY } from '../platform/operations/customers-bulk-query.ts'
import type { PlatformOrder } from '../platform/operations/order-fragments.ts'
import { SUBSCRIPTION_CONTRACTS_BULK_QUERY } from '../platform/operations/subscription-contracts-bulk-query.ts'
import type { PlatformPagedContract } from '../platform/operations/subscription-contracts-page.ts'
import { policyOf } from '../platform/operations/subscription-line-pricing.ts'
import { appendContractEvents, type ContractChange, upsertContracts } from './contracts-repo.ts'
import { type KeptLinePricing, keepContractLinePricing } from './line-pricing-repo.ts'
import { upsertCustomers, upsertOrders } from './mirror-repo.ts'
import { contractOrderRecords, contractRecord, customerRecord, lineRecords } from './records.ts'

// The initial sync of a big shop through bulk operations: one bulkOperationRunQuery per
// resource, polled by id until COMPLETED, then the JSONL file streamed line by line and
// written in batches. A 100k-contract shop costs a few dozen points instead of ~1.5M.

export type BulkOptions = {
  fetch?: typeof fetch
  sleep?: (ms: number) => Promise<void>
  now?: () => number
  /** Longest time to wait for one operation (start refused while another runs, then running). */
  maxWaitMs?: number
  /** Rows per database write. */
  batchSize?: number
  /** Database writes in flight at once (default 2). */
  parallelWrites?: number
  /** Contracts per part of the first sync's contracts export (bulk-contracts.ts; default 20,000). */
  contractsPerPart?: number
}

/** What one bulk export did, for the sync summary and the benchmark. */
export type BulkReport = {
  kind: 'customers' | 'contracts'
  operationId: string
  polls: number
  /** completedAt − createdAt as the platform reports them (whole seconds). */
  platformMs: number
  /** From the start answer to the poll that saw COMPLETED. */
  observedMs: number
  objectCount: number
  fileSize: number
  /** Download, parse and database writes. */
  ingestMs: number
}

export class BulkOperationError extends Error {
  readonly operation: PlatformBulkOperation | null
  constructor(message: string, operation: PlatformBulkOperation | null = null) {
    super(message)
    this.operation = operation
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export const BULK_QUERIES = { customers: CUSTOMERS_BULK_QUERY, contracts: SUBSCRIPTION_CONTRACTS_BULK_QUERY }

/**
 * Starts a bulk query. While another bulk query of this app runs on the shop (one at a time
 * per app and shop), waits with backoff and tries again, up to `maxWaitMs`.
 */
export async function startBulkQuery(
  client: AdminClient,
  query: string,
  opts: BulkOptions = {},
): Promise<{ id: string; startedAt: number }> {
  const sleep = opts.sleep ?? defaultSleep
  const now = opts.now ?? Date.now
  const deadline = now() + (opts.maxWaitMs ?? 30 * 60_000)
  for (let delay = 1_000; ; delay = Math.min(delay * 2, 15_000)) {
    try {
      const id = await runBulkQuery(client, query)
      return { id, startedAt: now() }
    } catch (error) {
      const busy =
        error instanceof PlatformUserError && error.userErrors.some((e) => e.code === 'OPERATION_IN_PROGRESS')
      if (!busy || now() + delay > deadline) throw error
      await sleep(delay)
    }
  }
}

/**
 * Polls the operation by id until it is COMPLETED (backoff from 100 ms to 1 s: a poll costs
 * one or two points), up to `maxWaitMs`. FAILED, CANCELED, EXPIRED or an unknown id throw.
 */
export async function waitForBulkOperation(
  client: AdminClient,
  started: { id: string; startedAt: number },
  opts: BulkOptions = {},
): Promise<{ operation: PlatformBulkOperation; polls: number; observedMs: number }> {
  const sleep = opts.sleep ?? defaultSleep
  const now = opts.now ?? Date.now
  const deadline = started.startedAt + (opts.maxWaitMs ?? 30 * 60_000)
  let polls = 0
  for (let delay = 100; ; delay = Math.min(Math.round(delay * 1.5), 1_000)) {
    const operation = await fetchBulkOperation(client, started.id)
    polls++
    if (!operation) throw new BulkOperationError(`bulk operation ${started.id} not found`)
    if (operation.status === 'COMPLETED') return { operation, polls, observedMs: now() - started.startedAt }
    if (!['CREATED', 'RUNNING'].includes(operation.status)) {
      throw new BulkOperationError(
        `bulk operation ${started.id} ended ${operation.status}${operation.errorCode ? ` (${operation.errorCode})` : ''}`,
        operation,
      )
    }
    if (now() + delay > deadline) {
      throw new BulkOperationError(
        `bulk operation ${started.id} still ${operation.status} after the wait limit`,
      )
    }
    await sleep(delay)
  }
}

type JsonObject = Record<string, unknown>

/**
 * The JSONL file as parsed objects, read as a stream: only the current chunk and a partial
 * line are held, never the whole file. 5xx/network failures before the body are retried.
 */
export async function* jsonlObjects(url: string, opts: BulkOptions = {}): AsyncGenerator<JsonObject> {
  const doFetch = opts.fetch ?? fetch
  const sleep = opts.sleep ?? defaultSleep
  let response: Response | undefined
  for (let attempt = 1; ; attempt++) {
    try {
      response = await doFetch(url)
      if (response.status < 500) break
      await response.body?.cancel()
    } catch (error) {
      if (attempt >= 5) throw new PlatformUnavailableError(`bulk file: ${(error as Error).message}`)
    }
    if (attempt >= 5)
      throw new PlatformUnavailableError(`bulk file: HTTP ${response?.status}`, response?.status)
    await sleep(250 * 2 ** attempt)
  }
  if (response.status >= 300 || !response.body) {
    await response.body?.cancel()
    throw new PlatformUnavailableError(`bulk file: HTTP ${response.status}`, response.status)
  }
  let rest = ''
  for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
    rest += chunk
    let start = 0
    for (let end = rest.indexOf('\n', start); end !== -1; end = rest.indexOf('\n', start)) {
      const line = rest.slice(start, end)
      start = end + 1
      if (line.trim()) yield JSON.parse(line) as JsonObject
    }
    rest = rest.slice(start)
  }
  if (rest.trim()) yield JSON.parse(rest) as JsonObject
}

/**
 * Groups lines into root objects with their children. The platform writes a parent's nested
 * connection nodes (`__parentId`) right after it, so a root is complete when the next root
 * starts; a child whose parent is not the current root means the file is not what we expect.
 */
export async function* withChildren(
  lines: AsyncIterable<JsonObject>,
): AsyncGenerator<{ node: JsonObject; children: JsonObject[] }> {
  let current: { node: JsonObject; children: JsonObject[] } | null = null
  for await (const line of lines) {
    const parentId = line.__parentId
    if (parentId === undefined) {
      if (current) yield current
      current = { node: line, children: [] }
      continue
    }
    if (!current || current.node.id !== parentId) {
      throw new BulkOperationError(`bulk file: child line of ${String(parentId)} is not after its parent`)
    }
    const { __parentId: _, ...child } = line
    current.children.push(child)
  }
  if (current) yield current
}

/**
 * Collects items into batches of `size` and writes them, at most `parallel` writes at a time,
 * while the next batches are read: parsing and the database overlap. Batches hold distinct
 * objects, so their order of arrival in the database does not matter. A failed write is kept
 * (not left unhandled) and thrown at the next turn.
 */
async function inBatches<T>(
  items: AsyncIterable<T>,
  size: number,
  parallel: number,
  write: (batch: T[]) => Promise<void>,
): Promise<number> {
  const running = new Set<Promise<void>>()
  let failure: { error: unknown } | null = null
  const start = (batch: T[]) => {
    const p: Promise<void> = write(batch)
      .catch((error: unknown) => {
        failure ??= { error }
      })
      .finally(() => running.delete(p))
    running.add(p)
  }
  const check = () => {
    if (failure) throw failure.error
  }
  let batch: T[] = []
  let count = 0
  try {
    for await (const item of items) {
      batch.push(item)
      count++
      if (batch.length >= size) {
        while (running.size >= parallel) await Promise.race(running)
        check()
        start(batch)
        batch = []
      }
    }
    if (batch.length > 0) start(batch)
  } finally {
    // Also when reading failed: no write may outlive the call (a retry or the caller's next
    // step must see the database as this attempt left it).
    await Promise.all(running)
  }
  check()
  return count
}

/** Writes the customers of a COMPLETED customers export. */
export async function ingestCustomers(
  db: Db,
  shopId: string,
  url: string | null,
  opts: BulkOptions = {},
): Promise<number> {
  if (!url) return 0 // the platform gives no file for an empty result
  return inBatches(
    jsonlObjects(url, opts),
    opts.batchSize ?? 1_000,
    opts.parallelWrites ?? 2,
    async (batch) => {
      await upsertCustomers(db, shopId, (batch as PlatformCustomer[]).map(customerRecord))
    },
  )
}

/**
 * A contract's child lines, told apart by GID type: its subscription lines and its orders
 * (`gid://shopify/SubscriptionLine/…`, `gid://shopify/Order/…`). Anything else means the file
 * is not what the query asked for.
 */
function splitChildren(
  contractId: unknown,
  children: JsonObject[],
): { lines: PlatformContractLine[]; orders: PlatformOrder[] } {
  const lines: PlatformContractLine[] = []
  const orders: PlatformOrder[] = []
  for (const child of children) {
    const id = typeof child.id === 'string' ? child.id : ''
    if (id.startsWith('gid://shopify/SubscriptionLine/')) lines.push(child as unknown as PlatformContractLine)
    else if (id.startsWith('gid://shopify/Order/')) orders.push(child as unknown as PlatformOrder)
    else
      throw new BulkOperationError(`bulk file: unexpected child ${id || '(no id)'} of ${String(contractId)}`)
  }
  return { lines, orders }
}

/**
 * Writes the contracts, lines and orders of a COMPLETED contracts export, with their events;
 * `orders` counts the order rows inserted or changed.
 */
export async function ingestContracts(
  db: Db,
  shopId: string,
  url: string | null,
  opts: BulkOptions & { onBatch?: (contracts: number, events: number, orders: number) => void } = {},
): Promise<{ contracts: number; events: number; orders: number }> {
  if (!url) return { contracts: 0, events: 0, orders: 0 }
  let contracts = 0
  let events = 0
  let orders = 0
  await inBatches(
    withChildren(jsonlObjects(url, opts)),
    opts.batchSize ?? 1_000,
    opts.parallelWrites ?? 2,
    async (batch) => {
      const platform = batch.map(({ node, children }) => {
        const split = splitChildren(node.id, children)
        return {
          ...node,
          // A bulk file holds every line and every order: nothing to read on.
          lines: { nodes: split.lines, pageInfo: { hasNextPage: false, endCursor: null } },
          orders: { nodes: split.orders, pageInfo: { hasNextPage: false, endCursor: null } },
        } as unknown as PlatformPagedContract
      })
      const written = await withTransaction(db, async (tx) => {
        const changes: ContractChange[] = await upsertContracts(
          tx,
          shopId,
          platform.map(contractRecord),
          platform.flatMap(lineRecords),
        )
        const orderRows = await upsertOrders(tx, shopId, platform.flatMap(contractOrderRecords))
        await keepContractLinePricing(tx, shopId, platform.map(keptPricingOf))
        return { events: await appendContractEvents(tx, shopId, 'sync', changes), orders: orderRows }
      })
      contracts += batch.length
      events += written.events
      orders += written.orders
      opts.onBatch?.(contracts, events, orders)
    },
  )
  return { contracts, events, orders }
}

/** A bulk contract's lines with their pricing policies, true at its updatedAt. */
function keptPricingOf(c: PlatformPagedContract): KeptLinePricing {
  const lines = c.lines.nodes as Array<PlatformContractLine & { pricingPolicy?: PlatformPricingPolicy }>
  return {
    contractId: idFromGid(c.id),
    state: { revisionId: c.revisionId, updatedAt: c.updatedAt },
    lines: lines.map((l) => ({
      id: l.id,
      currentPrice: l.currentPrice.amount,
      pricingPolicy: policyOf(l.pricingPolicy),
    })),
  }
}

export function bulkReport(
  kind: BulkReport['kind'],
  done: { operation: PlatformBulkOperation; polls: number; observedMs: number },
  ingestMs: number,
): BulkReport {
  const { operation } = done
  return {
    kind,
    operationId: operation.id,
    polls: done.polls,
    platformMs:
      operation.completedAt && operation.createdAt
        ? Date.parse(operation.completedAt) - Date.parse(operation.createdAt)
        : 0,
    observedMs: done.observedMs,
    objectCount: Number(operation.objectCount),
    fileSize: Number(operation.fileSize ?? 0),
    ingestMs,
  }
}

/**
 * Reading a bulk file again is safe (upserts keep the newer row, events only for changes), so
 * a download or write that broke off is retried twice before the caller falls back to pages.
 * A file that is not what we expect (BulkOperationError) is not retried.
 */
export async function retryIngest<T>(
  opts: BulkOptions,
  ingest: () => Promise<T>,
  onRetry?: () => void,
): Promise<T> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  for (let attempt = 1; ; attempt++) {
    try {
      return await ingest()
    } catch (error) {
      if (attempt >= 3 || error instanceof BulkOperationError) throw error
      onRetry?.()
      await sleep(1_000 * attempt)
    }
  }
}
