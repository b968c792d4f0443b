import { AsyncLocalStorage } from 'node:async_hooks'
import type { FastifyInstance } from 'fastify'
import type { CallContext } from '../platform/admission.ts'
import { AppError } from './app-error.ts'

/**
 * How long a merchant request's platform calls may wait to be sent. A page that shows nothing
 * for about 10 s loses the merchant (the usual attention limit of interactive UIs); 8 s of
 * waiting leaves room for the calls themselves and the mirror write after the last one, so
 * the answer — the result or a clear 503 — comes before that. A detail read or an edit finds
 * its points at once thanks to the interactive reserve, so only a shop whose bucket is spent
 * by merchants themselves (or other apps) ever reaches it.
 */
export const MERCHANT_DEADLINE_MS = 8_000

export const PLATFORM_BUSY_MESSAGE = 'ストアのAPIが混み合っています。しばらくしてからもう一度お試しください。'

export type LaneOptions = {
  /** Deadline of a merchant request's platform calls (default MERCHANT_DEADLINE_MS). */
  deadlineMs?: number
  /** Clock (ms) of the deadlines and of the shop clients' pacing; tests move it. */
  now?: () => number
  /** Merchant calls that may wait per shop before the next one is answered 503 at once. */
  maxInteractiveWaiting?: number
}

const storage = new AsyncLocalStorage<CallContext>()

/** The merchant request the running code serves, if any: the Admin clients' lane and deadline. */
export const currentCallContext = (): CallContext | undefined => storage.getStore()

/**
 * Runs `fn`, and everything it starts, as background work even inside a merchant request:
 * for work a request kicks off without waiting for it (the first sync after an install).
 */
export const outsideRequest = <T>(fn: () => T): T => storage.exit(fn)

/**
 * Runs a webhook delivery's platform reads as background work (they keep the merchants'
 * reserve) with a deadline: a call not sent by then never is, and the ones still waiting are
 * dropped when it passes, so a delivery the platform gave up on (it retries after 5 s) leaves
 * nothing queued behind it.
 */
export async function withinDelivery<T>(
  deadlineMs: number,
  fn: () => Promise<T>,
  now = Date.now,
): Promise<T> {
  const ended = new AbortController()
  const timer = setTimeout(() => ended.abort(), deadlineMs)
  try {
    return await storage.run({ lane: 'background', deadline: now() + deadlineMs, signal: ended.signal }, fn)
  } finally {
    clearTimeout(timer)
    ended.abort()
  }
}

/** Runs `fn` as a merchant request's code runs (benchmarks and tests of the lanes). */
export const asMerchantRequest = <T>(call: CallContext, fn: () => T): T => storage.run(call, fn)

/** The 503 a merchant gets when a platform call of the request was never sent. */
export const platformBusy = (cause?: unknown, message = PLATFORM_BUSY_MESSAGE) =>
  new AppError('PLATFORM_BUSY', message, { cause })

/**
 * Every /app-admin request runs in a CallContext: its Admin API calls take the interactive
 * lane, share one deadline counted from the request's arrival, and are dropped from the
 * queue when the request is over (answered, or the merchant closed the connection), so
 * nothing queued for a request outlives it. Everything else (webhooks, jobs, the billing
 * engine, the sync) has no context and is background work.
 */
export function registerRequestContext(app: FastifyInstance, opts: LaneOptions = {}): void {
  const deadlineMs = opts.deadlineMs ?? MERCHANT_DEADLINE_MS
  const now = opts.now ?? Date.now
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/app-admin/')) return done()
    const ended = new AbortController()
    reply.raw.once('close', () => ended.abort())
    // The hooks, the body parsing and the handler all continue from this call, so they and
    // every promise they create run in the context (a body arriving in parts included:
    // test/merchant-lanes.test.ts sends one).
    storage.run({ deadline: now() + deadlineMs, signal: ended.signal }, done)
  })
}
