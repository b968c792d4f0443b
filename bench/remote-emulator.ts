import { Worker } from 'node:worker_threads'
import type { CallLogEntry, Delivery, GraphqlResponse } from '@teiki/shopify-emulator'
import type { WorkerSetup } from './emulator-worker.ts'

/**
 * The billing benches' platform, running in a worker thread (bench/emulator-worker.ts), as the
 * app meets the real one: over HTTP, on other cores than the app's event loop. The bench reads
 * and arranges the platform through these calls.
 */
export type RemoteEmulator = {
  listen(port: number): Promise<string>
  install(domain: string): Promise<{ accessToken: string; scopes: string[] }>
  setCallbackUrl(url: string): Promise<void>
  setPlan(domain: string, plan: string): Promise<void>
  graphql(
    domain: string,
    request: { query: string; variables?: Record<string, unknown> },
  ): Promise<GraphqlResponse>
  idle(ms: number): Promise<void>
  callLogLength(): Promise<number>
  deliveriesLength(): Promise<number>
  callLog(from: number, shop: string): Promise<CallLogEntry[]>
  deliveries(from: number): Promise<Delivery[]>
  attemptCounts(domain: string): Promise<Record<string, number>>
  attemptsTotal(domain: string): Promise<number>
  activeContractIds(domain: string): Promise<number[]>
  arrangeDue(domain: string, due: number, dueAt: number, far: number): Promise<number[]>
  close(): Promise<void>
}

const METHODS = [
  'listen',
  'install',
  'setCallbackUrl',
  'setPlan',
  'graphql',
  'idle',
  'callLogLength',
  'deliveriesLength',
  'callLog',
  'deliveries',
  'attemptCounts',
  'attemptsTotal',
  'activeContractIds',
  'arrangeDue',
] as const

export async function startRemoteEmulator(setup: WorkerSetup): Promise<RemoteEmulator> {
  const worker = new Worker(new URL('./emulator-worker-boot.mjs', import.meta.url), { workerData: setup })
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let nextId = 0
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', () => resolve())
  })
  worker.on('message', (m: { id: number; result?: unknown; error?: string }) => {
    const call = pending.get(m.id)
    if (!call) return
    pending.delete(m.id)
    if (m.error !== undefined) call.reject(new Error(m.error))
    else call.resolve(m.result)
  })
  worker.on('error', (error) => {
    for (const call of pending.values()) call.reject(error)
    pending.clear()
  })
  const call = (method: string, args: unknown[]) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage({ id, method, args })
    })
  const remote = Object.fromEntries(
    METHODS.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as Omit<RemoteEmulator, 'close'>
  return {
    ...remote,
    async close() {
      await call('close', [])
      await worker.terminate()
    },
  }
}
